<?php
/**
 * Contact form markup. Field names follow snippet/src/form/PROTOCOL.md.
 *
 * @package Sitebeam
 *
 * @var string                $id         Unique id prefix.
 * @var array<string, string> $attributes      Rendering options.
 * @var string                $success_message Thank-you note, worded by the site owner.
 */

use Sitebeam\Contact\Field_Rules;
use Sitebeam\Contact\Form_Nonce;
use Sitebeam\Contact\Rest_Controller;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}
?>
<form class="sitebeam-contact" id="<?php echo esc_attr( $id ); ?>" data-sitebeam-form data-text-sent="<?php echo esc_attr( $success_message ); ?>" action="<?php echo esc_url( Rest_Controller::url() ); ?>" method="post">
	<p>
		<label for="<?php echo esc_attr( $id ); ?>-name"><?php esc_html_e( 'Name', 'sitebeam' ); ?></label>
		<input id="<?php echo esc_attr( $id ); ?>-name" name="name" type="text" required maxlength="<?php echo esc_attr( Field_Rules::NAME_MAX ); ?>" autocomplete="name">
	</p>
	<p>
		<label for="<?php echo esc_attr( $id ); ?>-email"><?php esc_html_e( 'Email', 'sitebeam' ); ?></label>
		<input id="<?php echo esc_attr( $id ); ?>-email" name="email" type="email" required autocomplete="email">
	</p>
	<p>
		<label for="<?php echo esc_attr( $id ); ?>-subject"><?php esc_html_e( 'Subject (optional)', 'sitebeam' ); ?></label>
		<input id="<?php echo esc_attr( $id ); ?>-subject" name="subject" type="text" maxlength="<?php echo esc_attr( Field_Rules::SUBJECT_MAX ); ?>">
	</p>
	<p>
		<label for="<?php echo esc_attr( $id ); ?>-message"><?php esc_html_e( 'Message', 'sitebeam' ); ?></label>
		<textarea id="<?php echo esc_attr( $id ); ?>-message" name="message" rows="6" required maxlength="<?php echo esc_attr( Field_Rules::MESSAGE_MAX ); ?>"></textarea>
	</p>
	<p aria-hidden="true" style="position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden">
		<label for="<?php echo esc_attr( $id ); ?>-homepage"><?php esc_html_e( 'Leave this field empty', 'sitebeam' ); ?></label>
		<input id="<?php echo esc_attr( $id ); ?>-homepage" name="homepage" type="text" tabindex="-1" autocomplete="off">
	</p>
	<input type="hidden" name="<?php echo esc_attr( Form_Nonce::FIELD ); ?>" value="<?php echo esc_attr( Form_Nonce::create() ); ?>">
	<p>
		<button type="submit"><?php echo esc_html( $attributes['button'] ); ?></button>
	</p>
	<p class="sitebeam-contact__status" aria-live="polite" data-sitebeam-status></p>
</form>
