<?php
/**
 * The chat's plain form (contract/chat-protocol.md): what a visitor without JavaScript posts, and what the
 * <sitebeam-chat> widget replaces.
 *
 * @package Sitebeam
 *
 * @var array{id: string, models: string[], message: string, chosen: string, consent: array|null, ticked: bool} $form What the form shows.
 */

use Sitebeam\Chat\Chat_Controller;
use Sitebeam\Contract;
use Sitebeam\Endpoint\Consent_Rule;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}
?>
<form method="post" action="<?php echo esc_url( Chat_Controller::url() ); ?>">
	<p>
		<label for="<?php echo esc_attr( $form['id'] ); ?>-message"><?php esc_html_e( 'Message', 'sitebeam' ); ?></label>
		<textarea id="<?php echo esc_attr( $form['id'] ); ?>-message" name="<?php echo esc_attr( Contract::CHAT_FIELD_MESSAGE ); ?>" rows="4" required maxlength="<?php echo esc_attr( Contract::CHAT_MESSAGE_MAX_CHARS ); ?>"><?php echo esc_textarea( $form['message'] ); ?></textarea>
	</p>
	<?php if ( count( $form['models'] ) > 1 ) : ?>
	<p>
		<label for="<?php echo esc_attr( $form['id'] ); ?>-model"><?php esc_html_e( 'Model', 'sitebeam' ); ?></label>
		<select id="<?php echo esc_attr( $form['id'] ); ?>-model" name="<?php echo esc_attr( Contract::CHAT_FIELD_MODEL ); ?>">
			<?php foreach ( $form['models'] as $sitebeam_model ) : ?>
			<option <?php selected( $sitebeam_model, $form['chosen'] ); ?>><?php echo esc_html( $sitebeam_model ); ?></option>
			<?php endforeach; ?>
		</select>
	</p>
	<?php endif; ?>
	<?php
	if ( null !== $form['consent'] ) {
		echo Consent_Rule::checkbox( $form['consent'], $form['id'], $form['ticked'] ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped by Consent_Rule::checkbox().
	}
	?>
	<p aria-hidden="true" style="position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden">
		<label for="<?php echo esc_attr( $form['id'] ); ?>-homepage"><?php esc_html_e( 'Leave this field empty', 'sitebeam' ); ?></label>
		<input id="<?php echo esc_attr( $form['id'] ); ?>-homepage" name="<?php echo esc_attr( Contract::CHAT_FIELD_HONEYPOT ); ?>" type="text" tabindex="-1" autocomplete="off">
	</p>
	<p><button type="submit"><?php esc_html_e( 'Send', 'sitebeam' ); ?></button></p>
</form>
