<?php
/**
 * Contact form markup. Field names follow contract/contact-protocol.md; the ticket is issued on every request.
 *
 * @package Sitebeam
 *
 * @var string                $id              Unique id prefix.
 * @var array<string, string> $attributes      Rendering options.
 * @var array<string, string> $texts           The widget's texts (Widget_Texts::contact_form()).
 * @var string                $text_attributes The data-text-* attributes, escaped.
 * @var array|null            $consent         The consent checkbox (Consent_Rule::of()), null while it is off.
 */

use Sitebeam\Contact\Form_Nonce;
use Sitebeam\Contact\Ticket;
use Sitebeam\Contact\Rest_Controller;
use Sitebeam\Contract;
use Sitebeam\Endpoint\Consent_Rule;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}
?>
<form class="sitebeam-contact" id="<?php echo esc_attr( $id ); ?>" data-sitebeam-form<?php echo $text_attributes; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- each value esc_attr()'d by Widget_Texts::attributes(). ?> action="<?php echo esc_url( Rest_Controller::url() ); ?>" method="post">
	<p>
		<label for="<?php echo esc_attr( $id ); ?>-name"><?php echo esc_html( $texts['name'] ); ?></label>
		<input id="<?php echo esc_attr( $id ); ?>-name" name="<?php echo esc_attr( Contract::CONTACT_FIELD_NAME ); ?>" type="text" required maxlength="<?php echo esc_attr( Contract::CONTACT_NAME_MAX_CHARS ); ?>" autocomplete="name">
	</p>
	<p>
		<label for="<?php echo esc_attr( $id ); ?>-email"><?php echo esc_html( $texts['email'] ); ?></label>
		<input id="<?php echo esc_attr( $id ); ?>-email" name="<?php echo esc_attr( Contract::CONTACT_FIELD_EMAIL ); ?>" type="email" required autocomplete="email">
	</p>
	<p>
		<label for="<?php echo esc_attr( $id ); ?>-subject"><?php echo esc_html( $texts['subject'] ); ?></label>
		<input id="<?php echo esc_attr( $id ); ?>-subject" name="<?php echo esc_attr( Contract::CONTACT_FIELD_SUBJECT ); ?>" type="text" maxlength="<?php echo esc_attr( Contract::CONTACT_SUBJECT_MAX_CHARS ); ?>">
	</p>
	<p>
		<label for="<?php echo esc_attr( $id ); ?>-message"><?php echo esc_html( $texts['message'] ); ?></label>
		<textarea id="<?php echo esc_attr( $id ); ?>-message" name="<?php echo esc_attr( Contract::CONTACT_FIELD_MESSAGE ); ?>" rows="6" required maxlength="<?php echo esc_attr( Contract::CONTACT_MESSAGE_MAX_CHARS ); ?>"></textarea>
	</p>
	<?php
	if ( null !== $consent ) {
		echo Consent_Rule::checkbox( $consent, $id ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped by Consent_Rule::checkbox().
	}
	?>
	<p aria-hidden="true" style="position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden">
		<label for="<?php echo esc_attr( $id ); ?>-homepage"><?php echo esc_html( $texts['honeypot'] ); ?></label>
		<input id="<?php echo esc_attr( $id ); ?>-homepage" name="<?php echo esc_attr( Contract::CONTACT_FIELD_HONEYPOT ); ?>" type="text" tabindex="-1" autocomplete="off">
	</p>
	<input type="hidden" name="<?php echo esc_attr( Form_Nonce::FIELD ); ?>" value="<?php echo esc_attr( Form_Nonce::create() ); ?>">
	<input type="hidden" name="<?php echo esc_attr( Contract::CONTACT_FIELD_TICKET ); ?>" value="<?php echo esc_attr( Ticket::issue() ); ?>">
	<p>
		<button type="submit"><?php echo esc_html( $attributes['button'] ); ?></button>
	</p>
	<p class="sitebeam-contact__status" aria-live="polite" data-sitebeam-status></p>
</form>
