<?php
/**
 * The "Sitebeam chat" block and the [sitebeam_chat] shortcode.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

final class Chat_Widget_Test extends Plugin_Test_Case {

	public function test_nothing_is_rendered_while_the_chat_is_off_or_has_no_model() {
		$this->set_settings( array( 'chat_models' => array( 'mock' ) ) );
		$this->assertSame( '', do_blocks( '<!-- wp:sitebeam/chat /-->' ) );
		$this->enable_chat( array() );
		$this->assertSame( '', do_shortcode( '[sitebeam_chat]' ) );
	}

	public function test_block_and_shortcode_render_the_widget_on_the_route_around_the_plain_form() {
		$this->enable_chat( array( 'mock', 'nltksentiment' ) );
		$route = esc_url( rest_url( 'sitebeam/v1/chat' ) );
		foreach ( array( do_blocks( '<!-- wp:sitebeam/chat /-->' ), do_shortcode( '[sitebeam_chat]' ) ) as $html ) {
			$this->assertMatchesRegularExpression( '#^<sitebeam-chat action="' . preg_quote( $route, '#' ) . '">\s*<form method="post" action="' . preg_quote( $route, '#' ) . '">#', trim( $html ) );
			$this->assertStringEndsWith( '</form>' . "\n" . '</sitebeam-chat>', trim( $html ) );
			$this->assertMatchesRegularExpression( '/<textarea id="sitebeam-chat-\d+-message" name="message"[^>]* required maxlength="4000">/', $html );
			$this->assertMatchesRegularExpression( '/<select id="sitebeam-chat-\d+-model" name="model">\s*<option\s*>mock<\/option>\s*<option\s*>nltksentiment<\/option>/', $html );
			$this->assertMatchesRegularExpression( '/name="homepage"[^>]*tabindex="-1"[^>]*autocomplete="off"/', $html );
			$this->assertStringNotContainsString( getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), $html );
		}
		$this->assertTrue( wp_script_is( 'sitebeam-chat', 'enqueued' ) );
		$this->assertStringEndsWith( '/wp-content/plugins/sitebeam/assets/js/sitebeam-chat.min.js', wp_scripts()->registered['sitebeam-chat']->src );
	}

	public function test_one_model_needs_no_picker() {
		$this->enable_chat( array( 'mock' ) );
		$this->assertStringNotContainsString( '<select', do_shortcode( '[sitebeam_chat]' ) );
	}
}
