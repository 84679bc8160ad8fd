<?php
/**
 * An instance URL WordPress's safe requests refuse (a private or loopback address, an unusual port, a localhost
 * name) is a refusal for good, said with its fix; a name that does not resolve right now is not (it may pass).
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Admin\Instance_Url_Check;
use Sitebeam\Safe_Url;

final class Instance_Url_Check_Test extends Plugin_Test_Case {

	/**
	 * @return array<string, array{string, string|null}>
	 */
	public static function urls() {
		return array(
			'a private address'        => array( 'https://10.1.2.3', '10.1.2.3, is private or this machine’s own' ),
			// 127.0.0.1 is the test site's own host, which WordPress lets through; any other loopback address it refuses.
			'a loopback address'       => array( 'https://127.0.0.2', '127.0.0.2, is private or this machine’s own' ),
			'an unusual port'          => array( 'https://api.example.com:8443', 'not to port 8443' ),
			'an IPv6 address'          => array( 'https://[2001:db8::1]', 'no IPv6 address written in the URL' ),
			'a localhost name'         => array( 'http://sitebeam.localhost', 'SITEBEAM_ALLOW_PRIVATE_HOSTS as true' ),
			'a name that resolves not' => array( 'https://no-such-host.invalid', null ),
		);
	}

	/**
	 * @dataProvider urls
	 *
	 * @param string      $url      The saved URL.
	 * @param string|null $expected Part of the reason, or null for no refusal.
	 */
	#[\PHPUnit\Framework\Attributes\DataProvider( 'urls' )]
	public function test_the_refusal_names_its_reason( $url, $expected ) {
		$reason = Safe_Url::refusal( $url );
		if ( null === $expected ) {
			$this->assertNull( $reason );
			return;
		}
		$this->assertStringContainsString( $expected, (string) $reason );
	}

	public function test_site_health_is_critical_with_the_fix_and_good_without_a_problem() {
		$problem = Instance_Url_Check::remembered_problem( 'https://10.9.8.7' );
		$this->assertStringContainsString( "add define( 'SITEBEAM_ALLOW_PRIVATE_HOSTS', true ); to wp-config.php", (string) $problem );
		$this->assertStringContainsString( 'Use the instance’s public https address', (string) $problem );

		$critical = Instance_Url_Check::site_health_result( $problem );
		$this->assertSame( 'critical', $critical['status'] );
		$this->assertStringContainsString( esc_html( $problem ), $critical['description'] );
		$this->assertSame( 'good', Instance_Url_Check::site_health_result( null )['status'] );
		$tests = Instance_Url_Check::filter_site_status_tests( array( 'direct' => array() ) );
		$this->assertArrayHasKey( Instance_Url_Check::TEST, $tests['direct'] );
	}

	public function test_with_private_hosts_allowed_in_wp_config_the_saved_url_is_no_problem() {
		$this->assertTrue( \Sitebeam\Settings::allows_private_hosts(), 'the test site allows its stub on 127.0.0.1' );
		$this->set_settings( array( 'api_url' => 'https://10.1.2.3' ) );
		$this->assertNull( Instance_Url_Check::problem() );
	}
}
