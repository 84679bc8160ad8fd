<?php
/**
 * The widgets' texts: the plugin translates exactly the keys each widget has, from the widget's own English, and
 * hands a translation to the widget as an escaped data-text-* attribute.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use DOMDocument;
use DOMXPath;
use Sitebeam\Widget_Texts;

final class Widget_Texts_Test extends Plugin_Test_Case {

	/** @var callable|null */
	private $translation;

	protected function tearDown(): void {
		if ( $this->translation ) {
			remove_filter( 'gettext', $this->translation );
		}
		parent::tearDown();
	}

	public function test_the_contact_form_texts_are_the_widgets_keys_and_english() {
		$this->assertSame( self::widget_english( 'snippet/src/form/texts.ts' ), Widget_Texts::contact_form() );
	}

	public function test_the_chat_texts_are_the_widgets_keys_and_english() {
		$this->assertSame( self::widget_english( 'snippet/src/chat/texts.ts' ), Widget_Texts::chat() );
	}

	public function test_an_english_site_gives_the_widgets_no_text_but_the_owners_thank_you() {
		$this->set_settings( array( 'contact_success' => 'Merci & <thanks>' ) );
		$this->assertSame( array( 'data-text-sent' => 'Merci & <thanks>' ), self::text_attributes( do_shortcode( '[sitebeam_contact]' ), 'form' ) );
		$this->enable_chat( array( 'mock' ) );
		$this->assertSame( array(), self::text_attributes( do_shortcode( '[sitebeam_chat]' ), 'sitebeam-chat' ) );
	}

	public function test_a_translation_reaches_the_contact_form_escaped_and_the_owners_thank_you_stays() {
		$this->translate(
			array(
				'Sending…'            => 'Wird „gesendet“ <…> & "so"',
				'Please fill in “%”.' => 'Bitte „%“ ausfüllen.',
				'Name'                => 'Ihr Name',
			)
		);
		$html = do_blocks( '<!-- wp:sitebeam/contact-form /-->' );
		$this->assertStringContainsString( ' data-text-sending="Wird „gesendet“ &lt;…&gt; &amp; &quot;so&quot;"', $html );
		$this->assertSame(
			array(
				'data-text-name'     => 'Ihr Name',
				'data-text-sending'  => 'Wird „gesendet“ <…> & "so"',
				'data-text-sent'     => 'Thank you, your message has been sent.',
				'data-text-required' => 'Bitte „%“ ausfüllen.',
			),
			self::text_attributes( $html, 'form' )
		);
		$this->assertStringContainsString( '>Ihr Name</label>', $html );
	}

	public function test_a_translation_reaches_the_chat_escaped() {
		$this->enable_chat( array( 'mock' ) );
		$this->translate(
			array(
				'Not sent: too many messages. Please wait a minute and try again.' => 'Zu viele <Nachrichten> & "so"',
				'Score: %' => 'Wertung: %',
			)
		);
		$html = do_shortcode( '[sitebeam_chat]' );
		$this->assertStringContainsString( ' data-text-rate-limited="Zu viele &lt;Nachrichten&gt; &amp; &quot;so&quot;"', $html );
		$this->assertSame(
			array(
				'data-text-score'        => 'Wertung: %',
				'data-text-rate-limited' => 'Zu viele <Nachrichten> & "so"',
			),
			self::text_attributes( $html, 'sitebeam-chat' )
		);
	}

	/**
	 * Fakes the plugin's translation, as a language pack would give it.
	 *
	 * @param array<string, string> $translations English text => translation.
	 */
	private function translate( array $translations ) {
		$this->translation = static function ( $translation, $text, $domain ) use ( $translations ) {
			return 'sitebeam' === $domain && isset( $translations[ $text ] ) ? $translations[ $text ] : $translation;
		};
		add_filter( 'gettext', $this->translation, 10, 3 );
	}

	/**
	 * The data-text-* attributes of the first $tag element, as a browser reads them.
	 *
	 * @return array<string, string>
	 */
	private static function text_attributes( $html, $tag ) {
		$document = new DOMDocument();
		$quiet    = libxml_use_internal_errors( true ); // libxml knows no custom element.
		self::assertTrue( $document->loadHTML( '<?xml encoding="UTF-8">' . $html ) );
		libxml_clear_errors();
		libxml_use_internal_errors( $quiet );
		$element = ( new DOMXPath( $document ) )->query( '//' . $tag )->item( 0 );
		$texts   = array();
		foreach ( $element->attributes as $attribute ) {
			if ( 0 === strpos( $attribute->name, 'data-text-' ) ) {
				$texts[ $attribute->name ] = $attribute->value;
			}
		}
		return $texts;
	}

	/**
	 * A widget's `en` texts, read from its TypeScript source (one `key: 'text',` a line).
	 *
	 * @param string $file Path from the repository root.
	 * @return array<string, string>
	 */
	private static function widget_english( $file ) {
		$source = (string) file_get_contents( dirname( __DIR__, 3 ) . '/' . $file );
		self::assertSame( 1, preg_match( '/^const en = \{\n(.*?)^\};/ms', $source, $block ), "$file: const en = { … };" );
		$lines = array_filter( explode( "\n", $block[1] ) );
		preg_match_all( "/^  (\w+): '([^'\\\\]*)',$/m", $block[1], $entries );
		self::assertCount( count( $lines ), $entries[0], "$file: every line of en is `key: 'text',`" );
		return array_combine( $entries[1], $entries[2] );
	}
}
