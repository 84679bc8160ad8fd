<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Contact\Form_Nonce;

final class Contact_Form_Test extends Plugin_Test_Case {

	public function test_block_and_shortcode_render_the_protocol_form() {
		foreach ( array( do_blocks( '<!-- wp:sitebeam/contact-form {"button":"Go"} /-->' ), do_shortcode( '[sitebeam_contact button="Go"]' ) ) as $html ) {
			$this->assertStringContainsString( 'data-sitebeam-form', $html );
			$this->assertStringContainsString( 'action="' . esc_url( rest_url( 'sitebeam/v1/contact' ) ) . '"', $html );
			foreach ( array( 'name', 'email', 'subject', 'message', 'homepage', Form_Nonce::FIELD ) as $field ) {
				$this->assertMatchesRegularExpression( '/name="' . $field . '"/', $html );
			}
			$this->assertMatchesRegularExpression( '/name="homepage"[^>]*tabindex="-1"[^>]*autocomplete="off"/', $html );
			$this->assertStringContainsString( '>Go</button>', $html );
			$this->assertStringNotContainsString( getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), $html );
			$this->assertStringNotContainsString( 'owner@example.com', $html, 'the recipient is never in the page' );
		}
		$this->assertTrue( wp_script_is( 'sitebeam-form', 'enqueued' ) );
	}

	public function test_nonce_made_for_a_logged_in_user_verifies_as_the_rest_api_sees_the_post() {
		wp_set_current_user( (int) get_user_by( 'login', getenv( 'SITEBEAM_WP_ADMIN_USER' ) )->ID );
		$nonce = Form_Nonce::create();
		$this->assertNotSame( 0, get_current_user_id(), 'the user is restored' );
		wp_set_current_user( 0 );
		$this->assertTrue( Form_Nonce::verify( $nonce ) );
		$this->assertFalse( Form_Nonce::verify( 'forged' ) );
	}
}
