<?php
/**
 * The optional consent checkbox of the contact form and the chat: its settings, the forms that show it and the
 * owner's mail line. The routes' refusals are the conformance cases' (Contact_ and Chat_Conformance_Test).
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Admin\Settings_Sanitizer;
use Sitebeam\Contact\Contact_Message;
use Sitebeam\Endpoint\Consent_Rule;
use Sitebeam\Privacy\Policy_Text;
use Sitebeam\Settings;

final class Consent_Checkbox_Test extends Plugin_Test_Case {

	const LABEL = 'I agree <b>"that"</b> & more';

	protected function tearDown(): void {
		delete_option( 'wp_page_for_privacy_policy' );
		parent::tearDown();
	}

	public function test_labels_are_plain_text_and_links_web_addresses_a_refused_link_keeps_the_stored_one() {
		$clean = Settings_Sanitizer::sanitize(
			array(
				'contact_consent' => "I <em>agree</em>\nto be answered",
				'contact_policy'  => ' https://example.com/privacy ',
				'chat_consent'    => 'Chat <script>x</script>ok',
				'chat_policy'     => '',
			)
		);
		$this->assertSame( 'I agree to be answered', $clean['contact_consent'] );
		$this->assertSame( 'https://example.com/privacy', $clean['contact_policy'] );
		$this->assertSame( 'Chat ok', $clean['chat_consent'] );
		$this->assertSame( '', $clean['chat_policy'] );

		update_option( Settings::OPTION, $clean );
		$refused = Settings_Sanitizer::sanitize( array( 'contact_policy' => 'javascript:alert(1)' ) );
		$this->assertSame( 'https://example.com/privacy', $refused['contact_policy'] );
		$this->assertSame( array( 'sitebeam_contact_policy' ), array_column( get_settings_errors( Settings::OPTION ), 'code' ) );
	}

	public function test_the_checkbox_is_off_without_a_label_and_links_to_the_sites_privacy_page_by_default() {
		$this->assertNull( Consent_Rule::of( Consent_Rule::CONTACT ) );
		$this->set_settings( array( 'contact_consent' => 'I agree' ) );
		$this->assertSame(
			array(
				'label' => 'I agree',
				'url'   => '',
			),
			Consent_Rule::of( Consent_Rule::CONTACT ),
			'no privacy page: no link'
		);
		$this->assertNull( Consent_Rule::of( Consent_Rule::CHAT ), 'each endpoint has its own checkbox' );

		$page = wp_insert_post(
			array(
				'post_type'   => 'page',
				'post_status' => 'publish',
				'post_title'  => 'Privacy',
			)
		);
		update_option( 'wp_page_for_privacy_policy', $page );
		try {
			$this->assertSame( get_permalink( $page ), Consent_Rule::of( Consent_Rule::CONTACT )['url'] );
			$this->set_settings( array( 'contact_policy' => 'https://example.com/own-policy' ) );
			$this->assertSame( 'https://example.com/own-policy', Consent_Rule::of( Consent_Rule::CONTACT )['url'], 'the owner’s link wins' );
		} finally {
			wp_delete_post( $page, true );
		}
	}

	public function test_consent_is_true_or_an_accepted_text_trimmed_and_without_case() {
		foreach ( array( true, 'yes', ' On ', 'TRUE', "1\n" ) as $given ) {
			$this->assertTrue( Consent_Rule::is_given( $given ), wp_json_encode( $given ) );
		}
		foreach ( array( null, false, '', 'no', 'y', 1, array( 'yes' ), 'yes please' ) as $refused ) {
			$this->assertFalse( Consent_Rule::is_given( $refused ), wp_json_encode( $refused ) );
		}
	}

	public function test_the_contact_block_and_shortcode_show_the_required_checkbox_with_the_escaped_label_and_link() {
		$this->assertStringNotContainsString( 'name="consent"', do_shortcode( '[sitebeam_contact]' ), 'off by default' );
		$this->set_settings(
			array(
				'contact_consent' => self::LABEL,
				'contact_policy'  => 'https://example.com/privacy?a=1&b=2',
			)
		);
		foreach ( array( do_blocks( '<!-- wp:sitebeam/contact-form /-->' ), do_shortcode( '[sitebeam_contact]' ) ) as $html ) {
			$this->assertMatchesRegularExpression( '/<input id="([^"]+)-consent" name="consent" type="checkbox" value="yes" required> <label for="\1-consent">/', $html );
			$this->assertStringContainsString( '>I agree &lt;b&gt;&quot;that&quot;&lt;/b&gt; &amp; more</label>', $html );
			$this->assertStringContainsString( '<a href="https://example.com/privacy?a=1&#038;b=2" target="_blank" rel="noopener">Privacy policy</a>', $html );
			$this->assertLessThan( strpos( $html, 'type="submit"' ), strpos( $html, 'name="consent"' ), 'before the send button' );
			$this->assertGreaterThan( strpos( $html, 'name="message"' ), strpos( $html, 'name="consent"' ), 'after the message' );
		}
	}

	public function test_the_chats_plain_form_shows_its_own_checkbox() {
		$this->enable_chat( array( 'mock' ), array( 'contact_consent' => 'For the contact form' ) );
		$this->assertStringNotContainsString( 'name="consent"', do_shortcode( '[sitebeam_chat]' ) );
		$this->set_settings(
			array(
				'chat_consent' => 'For the "chat"',
				'chat_policy'  => 'https://example.com/privacy?a=1&b=2',
			)
		);
		$html = do_blocks( '<!-- wp:sitebeam/chat /-->' );
		$this->assertMatchesRegularExpression( '/name="consent" type="checkbox" value="yes" required> <label [^>]*>For the &quot;chat&quot;<\/label>/', $html );
		$this->assertMatchesRegularExpression( '/<sitebeam-chat [^>]*consent-label="For the &quot;chat&quot;" consent-url="https:\/\/example.com\/privacy\?a=1&#038;b=2"/', $html, 'the widget, which replaces the plain form, draws its own' );
	}

	public function test_the_block_editor_gets_the_sites_checkboxes_and_the_settings_link_only_for_who_may_use_it() {
		$this->set_settings( array( 'chat_consent' => 'For </script> the chat' ) );
		wp_set_current_user( (int) get_user_by( 'login', getenv( 'SITEBEAM_WP_ADMIN_USER' ) )->ID );
		try {
			Consent_Rule::action_enqueue_block_editor_assets();
		} finally {
			wp_set_current_user( 0 );
		}
		$before = implode( "\n", (array) wp_scripts()->get_data( 'sitebeam-chat-editor-script', 'before' ) );
		$this->assertStringContainsString( '"contact":null', $before );
		$this->assertStringContainsString( '"chat":{"label":"For <\/script> the chat","url":""}', $before, 'JSON that cannot close the script element' );
		$this->assertStringContainsString( '"settings":"' . str_replace( '/', '\/', admin_url( 'options-general.php?page=sitebeam' ) ) . '"', $before );
		foreach ( array( 'sitebeam-chat-editor-script', 'sitebeam-contact-form-editor-script' ) as $handle ) {
			wp_scripts()->registered[ $handle ]->extra['before'] = array();
		}

		Consent_Rule::action_enqueue_block_editor_assets();
		$this->assertStringContainsString( '"settings":""', implode( "\n", (array) wp_scripts()->get_data( 'sitebeam-contact-form-editor-script', 'before' ) ) );
	}

	public function test_the_owners_mail_says_the_visitor_agreed_to_the_escaped_label_after_the_message() {
		$fields  = array(
			'name'    => 'Ann',
			'email'   => 'ann@example.com',
			'subject' => '',
			'message' => 'Hello',
		);
		$content = Contact_Message::compose( $fields + array( 'consent' => self::LABEL ), 'owner@example.com' )['content'];
		$this->assertStringContainsString( '<p>The visitor agreed: I agree &lt;b&gt;&quot;that&quot;&lt;/b&gt; &amp; more</p>', $content );
		$this->assertGreaterThan( strpos( $content, 'Hello' ), strpos( $content, 'The visitor agreed' ) );
		$this->assertStringNotContainsString( 'agreed', Contact_Message::compose( $fields, 'owner@example.com' )['content'] );
	}

	public function test_the_suggested_privacy_text_says_the_mail_records_the_agreement_only_while_consent_is_asked() {
		$agreed = 'the email we receive says that you agreed';
		$this->assertStringNotContainsString( $agreed, Policy_Text::html( Settings::get() ) );
		$this->assertStringContainsString( $agreed, Policy_Text::html( array_merge( Settings::get(), array( 'contact_consent' => 'I agree' ) ) ) );
	}
}
