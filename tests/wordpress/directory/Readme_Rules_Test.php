<?php
/**
 * Readme_Rules against small plugins written for each rule: a clean one, then one fault at a time.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests\Directory;

use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/Readme_Rules.php';

/**
 * One plugin folder per test, in a temporary folder.
 */
final class Readme_Rules_Test extends TestCase {

	const HEADER = "<?php\n/**\n * Plugin Name: Example Beam\n * Description: Sends beams.\n * Version: 1.2.0\n * Requires at least: 6.1\n * Requires PHP: 8.2\n * License: GPL-2.0-or-later\n * Text Domain: example-beam\n * Domain Path: /languages\n */\n";

	const README = "=== Example Beam ===\nContributors: someone\nTags: email, analytics\nRequires at least: 6.1\nTested up to: 7.1\nRequires PHP: 8.2\nStable tag: 1.2.0\nLicense: GPLv2 or later\nLicense URI: https://www.gnu.org/licenses/gpl-2.0.html\n\nSends beams to your instance.\n\n== Description ==\n\nIt sends beams.\n\n== External services ==\n\nIt talks to your instance.\n\n== Changelog ==\n\n= 1.2.0 =\n* Beams.\n";

	/**
	 * The temporary folder.
	 *
	 * @var string
	 */
	private $dir;

	protected function setUp(): void {
		$this->dir = sys_get_temp_dir() . '/readme-rules-' . bin2hex( random_bytes( 6 ) ) . '/example-beam';
		mkdir( $this->dir . '/languages', 0700, true );
	}

	protected function tearDown(): void {
		foreach ( array( 'example-beam.php', 'readme.txt' ) as $file ) {
			if ( is_file( "$this->dir/$file" ) ) {
				unlink( "$this->dir/$file" ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded here.
			}
		}
		rmdir( $this->dir . '/languages' );
		rmdir( $this->dir );
		rmdir( dirname( $this->dir ) );
	}

	/**
	 * Writes the plugin and checks it.
	 *
	 * @param string      $header  The main file.
	 * @param string|null $readme  readme.txt, or null for none.
	 * @param string      $current The current WordPress version.
	 * @return string[] "TYPE code" of each finding.
	 */
	private function findings( $header, $readme, $current = '7.1.0' ) {
		file_put_contents( "$this->dir/example-beam.php", $header ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- WordPress is not loaded here.
		if ( null !== $readme ) {
			file_put_contents( "$this->dir/readme.txt", $readme ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- WordPress is not loaded here.
		} elseif ( is_file( "$this->dir/readme.txt" ) ) {
			unlink( "$this->dir/readme.txt" ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded here.
		}
		return array_map(
			static function ( $finding ) {
				return $finding['type'] . ' ' . $finding['code'];
			},
			Readme_Rules::check( $this->dir, $current )
		);
	}

	/**
	 * The readme with one line replaced.
	 *
	 * @param string $line        A line of README.
	 * @param string $replacement What stands in its place ('' removes it).
	 */
	private static function readme_with( $line, $replacement ) {
		$readme = str_replace( $line . "\n", '' === $replacement ? '' : $replacement . "\n", self::README );
		self::assertNotSame( self::README, $readme, "README has the line $line" );
		return $readme;
	}

	public function test_a_complete_plugin_has_no_finding() {
		$this->assertSame( array(), $this->findings( self::HEADER, self::README ) );
		$this->assertSame( array(), $this->findings( self::HEADER, self::README, '7.1' ) );
	}

	public function test_tested_up_to_must_be_the_current_release_or_the_next() {
		$this->assertSame( array( 'ERROR outdated_tested_upto_header' ), $this->findings( self::HEADER, self::readme_with( 'Tested up to: 7.1', 'Tested up to: 6.9' ) ) );
		$this->assertSame( array( 'ERROR outdated_tested_upto_header' ), $this->findings( self::HEADER, self::README, '7.2.1' ) );
		$this->assertSame( array(), $this->findings( self::HEADER, self::readme_with( 'Tested up to: 7.1', 'Tested up to: 7.2' ) ) );
		$this->assertSame( array( 'WARNING readme_parser_warnings_tested_header_ignored' ), $this->findings( self::HEADER, self::readme_with( 'Tested up to: 7.1', 'Tested up to: 7.4' ) ) );
		$this->assertSame( array( 'WARNING readme_parser_warnings_tested_header_ignored' ), $this->findings( self::HEADER, self::readme_with( 'Tested up to: 7.1', 'Tested up to: latest' ) ) );
		$this->assertSame( array( 'ERROR missing_readme_header' ), $this->findings( self::HEADER, self::readme_with( 'Tested up to: 7.1', '' ) ) );
		$this->assertSame( array(), $this->findings( self::HEADER, self::readme_with( 'Tested up to: 7.1', 'Tested up to: WordPress 7.1' ) ) );
	}

	public function test_a_tested_up_to_in_the_plugin_header_must_be_the_readme_s() {
		$header = str_replace( " * Requires PHP: 8.2\n", " * Requires PHP: 8.2\n * Tested up to: 7.0\n", self::HEADER );
		$this->assertSame( array( 'ERROR mismatched_tested_up_to_header' ), $this->findings( $header, self::README ) );
		$this->assertSame( array(), $this->findings( str_replace( '7.0', '7.1', $header ), self::README ) );
	}

	public function test_the_stable_tag_is_the_plugin_s_version() {
		$this->assertSame( array( 'ERROR stable_tag_mismatch' ), $this->findings( self::HEADER, self::readme_with( 'Stable tag: 1.2.0', 'Stable tag: 1.1.0' ) ) );
		$this->assertSame( array( 'ERROR trunk_stable_tag' ), $this->findings( self::HEADER, self::readme_with( 'Stable tag: 1.2.0', 'Stable tag: trunk' ) ) );
		$this->assertSame( array( 'ERROR no_stable_tag' ), $this->findings( self::HEADER, self::readme_with( 'Stable tag: 1.2.0', '' ) ) );
		$this->assertSame( array(), $this->findings( self::HEADER, self::readme_with( 'Stable tag: 1.2.0', 'Stable tag: tags/1.2.0' ) ) );
	}

	public function test_the_short_description_fits_150_characters() {
		$long = str_repeat( 'Beams ', 25 ) . 'and more.';
		$this->assertSame( array( 'WARNING readme_parser_warnings_trimmed_short_description' ), $this->findings( self::HEADER, self::readme_with( 'Sends beams to your instance.', $long ) ) );
		$this->assertSame( array(), $this->findings( self::HEADER, self::readme_with( 'Sends beams to your instance.', str_repeat( 'x', 150 ) ) ) );
		$this->assertSame( array( 'WARNING readme_parser_warnings_no_short_description_present' ), $this->findings( self::HEADER, self::readme_with( 'Sends beams to your instance.', '' ) ) );
	}

	public function test_the_description_with_the_sections_it_takes_in_fits_1500_words() {
		$this->assertSame( array(), $this->findings( self::HEADER, self::readme_with( 'It sends beams.', str_repeat( 'beam ', 1400 ) ) ) );
		// "External services" is not a section the directory knows: it is shown with the description, and counts with it.
		$readme = str_replace( 'It talks to your instance.', str_repeat( 'talk ', 200 ), self::readme_with( 'It sends beams.', str_repeat( 'beam ', 1400 ) ) );
		$this->assertSame( array( 'WARNING readme_parser_warnings_trimmed_section_description' ), $this->findings( self::HEADER, $readme ) );
	}

	public function test_required_headers() {
		$this->assertSame( array( 'ERROR missing_readme_header' ), $this->findings( self::HEADER, self::readme_with( 'Contributors: someone', '' ) ) );
		$this->assertSame( array( 'ERROR plugin_header_missing_plugin_description' ), $this->findings( str_replace( " * Description: Sends beams.\n", '', self::HEADER ), self::README ) );
		$this->assertSame( array( 'ERROR plugin_header_missing_plugin_version' ), $this->findings( str_replace( " * Version: 1.2.0\n", '', self::HEADER ), self::README ) );
		$this->assertSame( array( 'ERROR invalid_plugin_name' ), $this->findings( self::HEADER, substr( self::README, strlen( "=== Example Beam ===\n" ) ) ) );
		$this->assertSame( array( 'ERROR no_plugin_readme' ), $this->findings( self::HEADER, null ) );
	}

	public function test_the_license_is_declared_gpl_compatible_and_the_same_in_both_places() {
		$this->assertSame( array( 'ERROR no_license' ), $this->findings( self::HEADER, self::readme_with( 'License: GPLv2 or later', '' ) ) );
		$this->assertSame( array( 'ERROR license_mismatch' ), $this->findings( self::HEADER, self::readme_with( 'License: GPLv2 or later', 'License: GPLv3' ) ) );
		$this->assertSame( array( 'ERROR plugin_header_no_license' ), $this->findings( str_replace( " * License: GPL-2.0-or-later\n", '', self::HEADER ), self::README ) );
		$proprietary = str_replace( 'GPL-2.0-or-later', 'Proprietary', self::HEADER );
		$this->assertSame( array( 'ERROR plugin_header_invalid_license', 'ERROR license_mismatch' ), $this->findings( $proprietary, self::README ) );
	}

	public function test_requirements_in_the_readme_are_the_plugin_header_s() {
		$this->assertSame( array( 'ERROR readme_mismatched_header_requires' ), $this->findings( self::HEADER, self::readme_with( 'Requires at least: 6.1', 'Requires at least: 6.2' ) ) );
		$this->assertSame( array( 'ERROR readme_mismatched_header_requires_php' ), $this->findings( self::HEADER, self::readme_with( 'Requires PHP: 8.2', 'Requires PHP: 7.4' ) ) );
		$this->assertSame( array( 'ERROR plugin_header_invalid_requires_php', 'ERROR readme_mismatched_header_requires_php' ), $this->findings( str_replace( 'Requires PHP: 8.2', 'Requires PHP: 8.2+', self::HEADER ), self::README ) );
	}

	public function test_tags_and_text_domain() {
		$this->assertSame( array( 'WARNING readme_parser_warnings_too_many_tags' ), $this->findings( self::HEADER, self::readme_with( 'Tags: email, analytics', 'Tags: a, b, c, d, e, f' ) ) );
		$this->assertSame( array( 'WARNING readme_parser_warnings_ignored_tags' ), $this->findings( self::HEADER, self::readme_with( 'Tags: email, analytics', 'Tags: email, plugin' ) ) );
		$this->assertSame( array( 'WARNING textdomain_mismatch' ), $this->findings( str_replace( 'Text Domain: example-beam', 'Text Domain: beams', self::HEADER ), self::README ) );
		$this->assertSame( array( 'WARNING plugin_header_nonexistent_domain_path' ), $this->findings( str_replace( 'Domain Path: /languages', 'Domain Path: /lang', self::HEADER ), self::README ) );
	}

	public function test_upgrade_notices_fit_300_characters() {
		$readme = self::README . "\n== Upgrade Notice ==\n\n= 1.2.0 =\n" . str_repeat( 'Upgrade now. ', 30 ) . "\n";
		$this->assertSame( array( 'WARNING upgrade_notice_limit' ), $this->findings( self::HEADER, $readme ) );
		$this->assertSame( array(), $this->findings( self::HEADER, self::README . "\n== Upgrade Notice ==\n\n= 1.2.0 =\nUpgrade now.\n" ) );
	}
}
