<?php
/**
 * Settings → Sitebeam.
 *
 * @package Sitebeam
 */

use Sitebeam\Admin\Connection_Actions;
use Sitebeam\Admin\Notice;
use Sitebeam\Admin\Settings_Page;
use Sitebeam\Mail\Send_Log;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

$sitebeam_results = array(
	Send_Log::SENT            => __( 'Sent', 'sitebeam' ),
	Send_Log::FAILED          => __( 'Failed', 'sitebeam' ),
	Send_Log::FALLEN_BACK     => __( 'API failed: handed to WordPress’s own mailer', 'sitebeam' ),
	Send_Log::FALLBACK_SENT   => __( 'API failed: sent by WordPress’s own mailer', 'sitebeam' ),
	Send_Log::FALLBACK_FAILED => __( 'Failed: the API and WordPress’s own mailer', 'sitebeam' ),
	Send_Log::QUEUED          => __( 'Instance unavailable: waiting in the outbox', 'sitebeam' ),
	Send_Log::DELETED         => __( 'Deleted from the outbox: not sent', 'sitebeam' ),
);
?>
<div class="wrap">
	<h1><?php esc_html_e( 'Sitebeam', 'sitebeam' ); ?></h1>
	<?php Notice::show(); ?>
	<?php
	if ( is_network_admin() ) {
		settings_errors( Sitebeam\Settings::OPTION );
	}
	?>
	<form method="post" action="<?php echo esc_url( Settings_Page::form_action() ); ?>">
		<?php
		settings_fields( Settings_Page::SLUG );
		do_settings_sections( Settings_Page::SLUG );
		submit_button();
		?>
	</form>

	<h2><?php esc_html_e( 'Check the connection', 'sitebeam' ); ?></h2>
	<p><?php esc_html_e( 'Save your settings first. Neither button changes them.', 'sitebeam' ); ?></p>
	<?php
	foreach ( array(
		Connection_Actions::TEST_CONNECTION => __( 'Test connection', 'sitebeam' ),
		Connection_Actions::SEND_TEST_EMAIL => __( 'Send test email', 'sitebeam' ),
	) as $sitebeam_action => $sitebeam_label ) :
		?>
		<form method="post" action="<?php echo esc_url( admin_url( 'admin-post.php' ) ); ?>" style="display:inline-block;margin-right:8px">
			<input type="hidden" name="action" value="<?php echo esc_attr( $sitebeam_action ); ?>">
			<?php wp_nonce_field( $sitebeam_action ); ?>
			<?php submit_button( $sitebeam_label, 'secondary', 'submit', false ); ?>
		</form>
	<?php endforeach; ?>

	<h2><?php esc_html_e( 'Last sends', 'sitebeam' ); ?></h2>
	<?php $sitebeam_entries = Send_Log::entries(); ?>
	<?php if ( ! $sitebeam_entries ) : ?>
		<p><?php esc_html_e( 'Nothing sent yet.', 'sitebeam' ); ?></p>
	<?php else : ?>
		<table class="widefat striped sitebeam-log">
			<thead>
				<tr>
					<th scope="col"><?php esc_html_e( 'Time', 'sitebeam' ); ?></th>
					<th scope="col"><?php esc_html_e( 'Recipients', 'sitebeam' ); ?></th>
					<th scope="col"><?php esc_html_e( 'Subject', 'sitebeam' ); ?></th>
					<th scope="col"><?php esc_html_e( 'Result', 'sitebeam' ); ?></th>
				</tr>
			</thead>
			<tbody>
			<?php foreach ( $sitebeam_entries as $sitebeam_entry ) : ?>
				<tr>
					<td><?php echo esc_html( wp_date( get_option( 'date_format' ) . ' ' . get_option( 'time_format' ), (int) $sitebeam_entry['time'] ) ); ?></td>
					<td><?php echo esc_html( implode( ', ', (array) $sitebeam_entry['recipients'] ) ); ?></td>
					<td><?php echo esc_html( $sitebeam_entry['subject'] ); ?></td>
					<td>
						<?php echo esc_html( $sitebeam_results[ $sitebeam_entry['result'] ] ?? $sitebeam_entry['result'] ); ?>
						<?php if ( '' !== $sitebeam_entry['detail'] ) : ?>
							<br><small><?php echo esc_html( $sitebeam_entry['detail'] ); ?></small>
						<?php endif; ?>
					</td>
				</tr>
			<?php endforeach; ?>
			</tbody>
		</table>
	<?php endif; ?>
</div>
