<?php
/**
 * Sitebeam → Chat.
 *
 * @package Sitebeam
 *
 * @var string[] $models  Every model the instance lists.
 * @var string   $problem Why the instance could not list them, or ''.
 */

use Sitebeam\Admin\Chat_Settings_Fields;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}
?>
<div class="wrap">
	<h1><?php esc_html_e( 'Sitebeam chat', 'sitebeam' ); ?></h1>
	<p><?php esc_html_e( 'Try any model of your Sitebeam instance with any prompt settings. Visitors only get the models and settings chosen in the Chat section of the settings.', 'sitebeam' ); ?></p>
	<?php if ( '' !== $problem ) : ?>
		<div class="notice notice-error inline"><p><?php echo esc_html( $problem ); ?></p></div>
	<?php elseif ( array() === $models ) : ?>
		<div class="notice notice-warning inline"><p><?php esc_html_e( 'The instance lists no model.', 'sitebeam' ); ?></p></div>
	<?php else : ?>
	<form id="sitebeam-chat-console" class="sitebeam-chat-console" data-route="/sitebeam/v1/console">
		<table class="form-table" role="presentation">
			<tr>
				<th scope="row"><label for="sitebeam-console-model"><?php esc_html_e( 'Model', 'sitebeam' ); ?></label></th>
				<td>
					<select id="sitebeam-console-model" name="model">
						<?php foreach ( $models as $sitebeam_model ) : ?>
						<option><?php echo esc_html( $sitebeam_model ); ?></option>
						<?php endforeach; ?>
					</select>
					<button type="button" class="button" data-sitebeam-load><?php esc_html_e( 'Load model', 'sitebeam' ); ?></button>
					<p role="status" data-sitebeam-load-status></p>
				</td>
			</tr>
			<tr>
				<th scope="row"><?php esc_html_e( 'Prompt settings', 'sitebeam' ); ?></th>
				<td>
					<?php Chat_Settings_Fields::render_prompt_settings( 'settings', array() ); ?>
					<p class="description"><?php esc_html_e( 'Leave a setting empty for the instance’s default.', 'sitebeam' ); ?></p>
				</td>
			</tr>
			<tr>
				<th scope="row"><label for="sitebeam-console-message"><?php esc_html_e( 'Message', 'sitebeam' ); ?></label></th>
				<td><textarea id="sitebeam-console-message" name="message" rows="4" class="large-text" required></textarea></td>
			</tr>
		</table>
		<p><button type="submit" class="button button-primary"><?php esc_html_e( 'Prompt', 'sitebeam' ); ?></button></p>
		<p role="status" data-sitebeam-prompt-status></p>
		<div role="log" aria-label="<?php esc_attr_e( 'Answers', 'sitebeam' ); ?>" data-sitebeam-answers></div>
	</form>
	<?php endif; ?>
</div>
