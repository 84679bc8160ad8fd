<?php
/**
 * The plugin directory's rules for readme.txt and the plugin header, as WordPress.org's Plugin Check applies them
 * (its Plugin_Readme_Check and Plugin_Header_Fields_Check, github.com/WordPress/plugin-check, with the readme parser
 * of the directory it reads the readme with, WordPressdotorg\Plugin_Directory\Readme\Parser), without WordPress.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests\Directory;

/**
 * Checks one plugin folder against the current WordPress version; each finding is an error or a warning with
 * Plugin Check's code.
 */
final class Readme_Rules {

	/** The directory truncates a longer short description (the parser's maximum_field_lengths). */
	const SHORT_DESCRIPTION_MAX_CHARS = 150;

	/** The directory truncates a longer section, counted in words. */
	const SECTION_MAX_WORDS = 1500;

	/** Plugin Check's upgrade notice limit. */
	const UPGRADE_NOTICE_MAX_CHARS = 300;

	/** The directory keeps the first five tags. */
	const MAX_TAGS = 5;

	/** Tags the directory ignores. */
	const IGNORED_TAGS = array( 'plugin', 'wordpress' );

	/** The sections the parser knows; any other heading becomes part of the description. */
	const KNOWN_SECTIONS = array( 'description', 'installation', 'faq', 'screenshots', 'changelog', 'upgrade_notice' );

	/** Readme headers, as the parser names them. */
	const README_HEADERS = array(
		'tested'            => 'tested',
		'tested up to'      => 'tested',
		'requires'          => 'requires',
		'requires at least' => 'requires',
		'requires php'      => 'requires_php',
		'tags'              => 'tags',
		'contributors'      => 'contributors',
		'donate link'       => 'donate_link',
		'stable tag'        => 'stable_tag',
		'license'           => 'license',
		'license uri'       => 'license_uri',
	);

	/** Plugin header fields Plugin Check reads. */
	const PLUGIN_HEADERS = array(
		'Name'        => 'Plugin Name',
		'PluginURI'   => 'Plugin URI',
		'Version'     => 'Version',
		'Description' => 'Description',
		'AuthorURI'   => 'Author URI',
		'TextDomain'  => 'Text Domain',
		'DomainPath'  => 'Domain Path',
		'Network'     => 'Network',
		'RequiresWP'  => 'Requires at least',
		'RequiresPHP' => 'Requires PHP',
		'TestedWP'    => 'Tested up to',
		'License'     => 'License',
	);

	/** Home pages Plugin Check refuses as a plugin's or an author's URI. */
	const DISCOURAGED_DOMAINS = array( 'example.com', 'example.net', 'example.org', 'wordpress.org', 'wordpress.com', 'localhost' );

	/**
	 * The findings.
	 *
	 * @var array<int, array{type: string, code: string, message: string}>
	 */
	private $findings = array();

	/**
	 * Checks the plugin in a folder (its slug is the folder's name).
	 *
	 * @param string $plugin_dir        The plugin's folder: readme.txt and the main file with the plugin header.
	 * @param string $wordpress_version The current WordPress release, e.g. "7.1" or "7.1.0".
	 * @return array<int, array{type: string, code: string, message: string}>
	 */
	public static function check( $plugin_dir, $wordpress_version ) {
		$rules = new self();
		$rules->check_plugin( rtrim( $plugin_dir, '/' ), self::major_minor( $wordpress_version ) );
		return $rules->findings;
	}

	/**
	 * Runs every rule.
	 *
	 * @param string $plugin_dir The plugin's folder.
	 * @param string $current    The current WordPress major.minor.
	 */
	private function check_plugin( $plugin_dir, $current ) {
		$main_file = self::main_file( $plugin_dir );
		if ( null === $main_file ) {
			$this->error( 'no_plugin_header', 'No PHP file at the top of the plugin carries a "Plugin Name" header.' );
			return;
		}
		$header      = self::plugin_header( (string) file_get_contents( $main_file ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a local file, outside WordPress.
		$readme_file = self::readme_file( $plugin_dir );
		$this->check_header( $header, basename( $plugin_dir ), $plugin_dir, $current );
		if ( null === $readme_file ) {
			$this->error( 'no_plugin_readme', 'The plugin readme.txt does not exist.' );
			return;
		}
		$readme = self::parse_readme( (string) file_get_contents( $readme_file ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a local file, outside WordPress.
		$this->check_readme( $readme, $header, $current );
	}

	/**
	 * Plugin_Header_Fields_Check.
	 *
	 * @param array<string, string> $header     The plugin header.
	 * @param string                $slug       The plugin's folder name.
	 * @param string                $plugin_dir The plugin's folder.
	 * @param string                $current    The current WordPress major.minor.
	 */
	private function check_header( array $header, $slug, $plugin_dir, $current ) {
		if ( in_array( $header['Name'], array( 'Plugin Name', 'My Basics Plugin' ), true ) ) {
			$this->error( 'plugin_header_invalid_plugin_name', 'The "Plugin Name" header in the plugin file is not valid.' );
		}
		foreach ( array( 'PluginURI' => 'plugin_uri', 'AuthorURI' => 'author_uri' ) as $field => $code ) {
			if ( '' === $header[ $field ] ) {
				continue;
			}
			if ( ! self::is_valid_url( $header[ $field ] ) ) {
				$this->error( "plugin_header_invalid_$code", sprintf( 'The "%s" header in the plugin file is not valid.', self::PLUGIN_HEADERS[ $field ] ) );
			} elseif ( self::discouraged_domain( $header[ $field ] ) ) {
				$this->error( "plugin_header_invalid_{$code}_domain", sprintf( 'The "%s" header in the plugin file names a discouraged domain.', self::PLUGIN_HEADERS[ $field ] ) );
			}
		}
		if ( '' === $header['Description'] ) {
			$this->error( 'plugin_header_missing_plugin_description', 'The "Description" header is missing in the plugin file.' );
		} elseif ( preg_match( '/This is a short description of what the plugin does|Here is a short description of the plugin|Handle the basics with this plugin/', $header['Description'] ) ) {
			$this->error( 'plugin_header_invalid_plugin_description', 'The "Description" header in the plugin file should not contain default text.' );
		}
		if ( '' === $header['Version'] ) {
			$this->error( 'plugin_header_missing_plugin_version', 'The "Version" header is missing in the plugin file.' );
		} elseif ( ! preg_match( '/^[a-z0-9.-]+$/i', $header['Version'] ) ) {
			$this->error( 'plugin_header_invalid_plugin_version', 'The "Version" header in the plugin file should only contain numbers, letters, periods, and hyphens.' );
		}
		if ( '' !== $header['Network'] && 'true' !== strtolower( $header['Network'] ) ) {
			$this->error( 'plugin_header_invalid_network', 'The "Network" header in the plugin file can only be set to true.' );
		}
		if ( '' !== $header['RequiresWP'] ) {
			if ( ! preg_match( '!^\d+\.\d(\.\d+)?$!', $header['RequiresWP'] ) ) {
				$this->error( 'plugin_header_invalid_requires_wp', 'The "Requires at least" header in the plugin file should only contain a WordPress version such as "6.5.1" or "6.6".' );
			} elseif ( version_compare( $header['RequiresWP'], self::next_major( $current ), '>' ) ) {
				$this->error( 'plugin_header_nonexistent_requires_wp', sprintf( 'Requires at least: %s. This version of WordPress does not exist (yet).', $header['RequiresWP'] ) );
			}
		}
		if ( '' !== $header['RequiresPHP'] && ! preg_match( '!^\d+(\.\d+){1,2}$!', $header['RequiresPHP'] ) ) {
			$this->error( 'plugin_header_invalid_requires_php', 'The "Requires PHP" header in the plugin file should only contain a PHP version such as "5.2.4" or "7.0".' );
		}
		if ( '' === $header['License'] ) {
			$this->error( 'plugin_header_no_license', 'Missing "License" in the plugin header: declare a GPLv2 (or later) compatible license.' );
		} elseif ( ! self::is_gpl_compatible( self::normalize_license( $header['License'] ) ) ) {
			$this->error( 'plugin_header_invalid_license', sprintf( 'Invalid License: %s. Declare a GPLv2 (or later) compatible license.', $header['License'] ) );
		}
		if ( '' !== $header['TextDomain'] ) {
			if ( ! preg_match( '/^[a-z0-9]+(?:-[a-z0-9]+)*$/', $header['TextDomain'] ) ) {
				$this->error( 'textdomain_invalid_format', sprintf( 'The "Text Domain" header should only contain lowercase letters, numbers, and hyphens. Found "%s".', $header['TextDomain'] ) );
			} elseif ( $slug !== $header['TextDomain'] ) {
				$this->warning( 'textdomain_mismatch', sprintf( 'The "Text Domain" header does not match the slug. Found "%s", expected "%s".', $header['TextDomain'], $slug ) );
			}
		}
		if ( '' !== $header['DomainPath'] ) {
			if ( 0 !== strpos( $header['DomainPath'], '/' ) ) {
				$this->warning( 'plugin_header_invalid_domain_path', 'The "Domain Path" header in the plugin file must start with forward slash.' );
			}
			if ( ! is_dir( $plugin_dir . '/' . trim( $header['DomainPath'], '/' ) ) ) {
				$this->warning( 'plugin_header_nonexistent_domain_path', sprintf( 'The "Domain Path" header must point to an existing folder. Found: "%s"', $header['DomainPath'] ) );
			}
		}
	}

	/**
	 * Plugin_Readme_Check, and where the readme must say what the plugin header says.
	 *
	 * @param array<string, mixed>  $readme  The parsed readme.
	 * @param array<string, string> $header  The plugin header.
	 * @param string                $current The current WordPress major.minor.
	 */
	private function check_readme( array $readme, array $header, $current ) {
		if ( '' === $readme['name'] ) {
			$this->error( 'invalid_plugin_name', 'Plugin name header in your readme is missing or invalid, e.g. "=== Example Name ===".' );
		} elseif ( html_entity_decode( $readme['name'], ENT_QUOTES | ENT_HTML401 ) !== $header['Name'] ) {
			$this->warning( 'mismatched_plugin_name', sprintf( 'Plugin name "%s" is different from the name declared in plugin header "%s".', $readme['name'], $header['Name'] ) );
		}

		$tested = self::sanitize_wordpress_version( $readme['headers']['tested'] ?? '', array( 'WordPress', 'WP' ), $current );
		if ( null === $tested ) {
			$this->warning( 'readme_parser_warnings_tested_header_ignored', sprintf( 'The "Tested up to" field was ignored: it should only contain a valid WordPress version such as "%s".', $current ) );
		} elseif ( '' === $tested ) {
			$this->error( 'missing_readme_header', 'The "Tested up to" field is missing.' );
		} elseif ( version_compare( $tested, $current, '<' ) ) {
			$this->error( 'outdated_tested_upto_header', sprintf( 'Tested up to: %s < %s. The "Tested up to" value is not set to the current version of WordPress: the directory does not list the plugin in searches.', $tested, $current ) );
		} elseif ( version_compare( $tested, self::next_major( $current ), '>' ) ) {
			$this->error( 'nonexistent_tested_upto_header', sprintf( 'Tested up to: %s. This version of WordPress does not exist (yet).', $tested ) );
		}
		if ( '' !== $header['TestedWP'] && $header['TestedWP'] !== ( $readme['headers']['tested'] ?? '' ) ) {
			$this->error( 'mismatched_tested_up_to_header', sprintf( 'Mismatched Tested up to: %s != %s (readme.txt and the plugin header).', $readme['headers']['tested'] ?? '', $header['TestedWP'] ) );
		}

		$requires = self::sanitize_wordpress_version( $readme['headers']['requires'] ?? '', array( 'WordPress', 'WP', 'or higher', 'and above', '+' ), $current );
		if ( null === $requires ) {
			$this->warning( 'readme_parser_warnings_requires_header_ignored', 'The "Requires at least" field was ignored: it should only contain a valid WordPress version.' );
		} elseif ( '' !== $requires && '' !== $header['RequiresWP'] && $requires !== $header['RequiresWP'] ) {
			$this->error( 'readme_mismatched_header_requires', sprintf( 'Mismatched Requires at least: %s != %s (readme.txt and the plugin header).', $requires, $header['RequiresWP'] ) );
		}
		$requires_php = trim( $readme['headers']['requires_php'] ?? '' );
		if ( '' !== $requires_php && ! preg_match( '!^\d+(\.\d+){1,2}$!', $requires_php ) ) {
			$this->warning( 'readme_parser_warnings_requires_php_header_ignored', 'The "Requires PHP" field was ignored: it should only contain a PHP version such as "7.0".' );
		} elseif ( '' !== $requires_php && '' !== $header['RequiresPHP'] && $requires_php !== $header['RequiresPHP'] ) {
			$this->error( 'readme_mismatched_header_requires_php', sprintf( 'Mismatched Requires PHP: %s != %s (readme.txt and the plugin header).', $requires_php, $header['RequiresPHP'] ) );
		}

		$contributors = trim( $readme['headers']['contributors'] ?? '' );
		if ( '' === $contributors ) {
			$this->error( 'missing_readme_header', 'The "Contributors" field is missing.' );
		} elseif ( ! preg_match( '/^[a-z0-9_.\-@ ]+(,[a-z0-9_.\-@ ]+)*$/i', $contributors ) ) {
			$this->warning( 'readme_invalid_contributors', 'The "Contributors" header must be a comma-separated list of WordPress.org-formatted usernames.' );
		}

		$tags = array_values( array_filter( array_map( 'trim', explode( ',', $readme['headers']['tags'] ?? '' ) ) ) );
		if ( array_intersect( $tags, self::IGNORED_TAGS ) ) {
			$this->warning( 'readme_parser_warnings_ignored_tags', 'One or more tags were ignored. These tags are not permitted: "' . implode( '", "', self::IGNORED_TAGS ) . '"' );
		}
		if ( count( array_diff( $tags, self::IGNORED_TAGS ) ) > self::MAX_TAGS ) {
			$this->warning( 'readme_parser_warnings_too_many_tags', sprintf( 'One or more tags were ignored. Please limit your plugin to %d tags.', self::MAX_TAGS ) );
		}
		if ( in_array( 'tag1', $tags, true ) || false !== strpos( $readme['short_description'], 'Here is a short description of the plugin.' ) || false !== strpos( $readme['headers']['donate_link'] ?? '', '//example.com/' ) ) {
			$this->error( 'default_readme_text', 'The readme appears to contain default text.' );
		}

		$this->check_readme_license( $readme, $header );
		$this->check_stable_tag( $readme, $header );
		$this->check_lengths( $readme );
	}

	/**
	 * The readme's license: declared, an SPDX identifier, the plugin header's.
	 *
	 * @param array<string, mixed>  $readme The parsed readme.
	 * @param array<string, string> $header The plugin header.
	 */
	private function check_readme_license( array $readme, array $header ) {
		$license = trim( $readme['headers']['license'] ?? '' );
		// "License: GPLv2 - http://…" names its URI in the same line.
		$license = trim( (string) preg_replace( '!https?://\S+!i', '', $license ), " -*\t" );
		if ( '' === $license ) {
			$this->error( 'no_license', 'Your plugin has no license declared in readme.txt: declare a GPLv2 (or later) compatible license.' );
			return;
		}
		$license = self::normalize_license( $license );
		if ( ! preg_match( '/^([a-z0-9\-\+\.]+)(\sor\s([a-z0-9\-\+\.]+))*$/i', $license ) ) {
			$this->error( 'invalid_license', 'Your plugin has an invalid license declared: use a valid SPDX license identifier.' );
		}
		if ( '' !== $header['License'] && self::normalize_license( $header['License'] ) !== $license ) {
			$this->error( 'license_mismatch', 'Your plugin has a different license declared in the readme file and plugin header.' );
		}
	}

	/**
	 * The stable tag: declared, not trunk, the plugin's version.
	 *
	 * @param array<string, mixed>  $readme The parsed readme.
	 * @param array<string, string> $header The plugin header.
	 */
	private function check_stable_tag( array $readme, array $header ) {
		$stable_tag = trim( trim( $readme['headers']['stable_tag'] ?? '' ), '"\'' );
		$stable_tag = (string) preg_replace( '![^a-z0-9_.-]!i', '', (string) preg_replace( '!^/?tags/!i', '', $stable_tag ) );
		if ( '' !== $stable_tag && '.' === $stable_tag[0] ) {
			$stable_tag = '0' . $stable_tag;
		}
		if ( '' === $stable_tag ) {
			$this->error( 'no_stable_tag', 'Incorrect Stable Tag: none is declared.' );
		} elseif ( 'trunk' === $stable_tag ) {
			$this->error( 'trunk_stable_tag', "Incorrect Stable Tag: do not use 'Stable Tag: trunk'." );
		} elseif ( '' !== $header['Version'] && $stable_tag !== $header['Version'] ) {
			$this->error( 'stable_tag_mismatch', sprintf( 'Mismatched Stable Tag: %s != %s. The Stable Tag must be the Version in the main plugin file.', $stable_tag, $header['Version'] ) );
		}
	}

	/**
	 * What the directory would truncate: the short description, sections, upgrade notices.
	 *
	 * @param array<string, mixed> $readme The parsed readme.
	 */
	private function check_lengths( array $readme ) {
		$short = $readme['short_description'];
		if ( '' === $short ) {
			$this->warning( 'readme_parser_warnings_no_short_description_present', 'The "Short Description" section is missing: the directory takes the first line of the description.' );
		} elseif ( mb_strlen( self::plain_text( $short ) ) > self::SHORT_DESCRIPTION_MAX_CHARS ) {
			$this->warning( 'readme_parser_warnings_trimmed_short_description', sprintf( 'The "Short Description" section is too long and was truncated. A maximum of %d characters is supported.', self::SHORT_DESCRIPTION_MAX_CHARS ) );
		}
		foreach ( $readme['sections'] as $section => $content ) {
			if ( count( (array) preg_split( '/(\s+)/u', $content, -1, PREG_SPLIT_DELIM_CAPTURE ) ) >= 2 * self::SECTION_MAX_WORDS ) {
				$this->warning( "readme_parser_warnings_trimmed_section_$section", sprintf( 'The "%s" section is too long and was truncated. A maximum of %d words is supported.', $section, self::SECTION_MAX_WORDS ) );
			}
		}
		foreach ( $readme['upgrade_notice'] as $version => $notice ) {
			if ( strlen( $notice ) > self::UPGRADE_NOTICE_MAX_CHARS ) {
				$this->warning( 'upgrade_notice_limit', sprintf( 'The upgrade notice for "%s" exceeds the limit of %d characters.', $version, self::UPGRADE_NOTICE_MAX_CHARS ) );
			}
		}
	}

	/**
	 * The readme as the directory's parser reads it: name, headers, short description, sections (any heading it does
	 * not know is appended to the description) and upgrade notices.
	 *
	 * @param string $text The readme.
	 * @return array{name: string, headers: array<string, string>, short_description: string, sections: array<string, string>, upgrade_notice: array<string, string>}
	 */
	public static function parse_readme( $text ) {
		$lines = (array) preg_split( '!\R!u', (string) preg_replace( '/^\xEF\xBB\xBF/', '', $text ) );
		$name  = '';
		while ( $lines && '' === trim( (string) $lines[0] ) ) {
			array_shift( $lines );
		}
		$first = (string) array_shift( $lines );
		if ( null !== self::header_line( $first, true ) ) {
			array_unshift( $lines, $first );
		} elseif ( 'plugin name' !== strtolower( trim( $first, "#= \t\0\x0B" ) ) ) {
			$name = trim( $first, "#= \t\0\x0B" );
		}

		$headers    = array();
		$last_blank = false;
		while ( $lines ) {
			$line   = (string) $lines[0];
			$header = self::header_line( $line, false );
			if ( null === $header ) {
				if ( '' !== trim( $line ) ) {
					break;
				}
				$last_blank = true;
				array_shift( $lines );
				continue;
			}
			if ( isset( self::README_HEADERS[ $header[0] ] ) ) {
				$headers[ self::README_HEADERS[ $header[0] ] ] = $header[1];
			} elseif ( $last_blank ) {
				break;
			}
			$last_blank = false;
			array_shift( $lines );
		}

		$short = '';
		while ( $lines && ! self::is_section_heading( (string) $lines[0] ) ) {
			$short .= array_shift( $lines ) . "\n";
		}

		$sections = array();
		$current  = null;
		foreach ( $lines as $line ) {
			if ( self::is_section_heading( (string) $line ) ) {
				$title   = trim( (string) $line, "#= \t" );
				$current = strtolower( str_replace( ' ', '_', $title ) );
				$current = array(
					'frequently_asked_questions' => 'faq',
					'change_log'                 => 'changelog',
					'screenshot'                 => 'screenshots',
				)[ $current ] ?? $current;
				if ( ! in_array( $current, self::KNOWN_SECTIONS, true ) ) {
					$sections['other_notes'] = ( $sections['other_notes'] ?? '' ) . "<h3>$title</h3>";
					$current                 = 'other_notes';
				}
				$sections[ $current ] = $sections[ $current ] ?? '';
				continue;
			}
			if ( null !== $current ) {
				$sections[ $current ] .= $line . "\n";
			}
		}
		$sections = array_filter( array_map( 'trim', $sections ) );
		if ( isset( $sections['other_notes'] ) ) {
			$sections['description'] = ( $sections['description'] ?? trim( $short ) ) . "\n" . $sections['other_notes'];
			unset( $sections['other_notes'] );
		}
		$upgrade_notice = array();
		if ( isset( $sections['upgrade_notice'] ) ) {
			$version = '';
			foreach ( explode( "\n", $sections['upgrade_notice'] ) as $line ) {
				if ( preg_match( '/^\s*=+\s*(.*?)\s*=+\s*$/', $line, $heading ) ) {
					$version = $heading[1];
				} else {
					$upgrade_notice[ $version ] = trim( ( $upgrade_notice[ $version ] ?? '' ) . "\n" . $line );
				}
			}
			unset( $sections['upgrade_notice'] );
		}

		return array(
			'name'              => $name,
			'headers'           => $headers,
			'short_description' => trim( $short ),
			'sections'          => $sections,
			'upgrade_notice'    => $upgrade_notice,
		);
	}

	/**
	 * A "Key: value" line, as the parser reads headers (lower-case key), or null.
	 *
	 * @param string $line       The line.
	 * @param bool   $only_known Only the headers the parser knows.
	 * @return array{0: string, 1: string}|null
	 */
	private static function header_line( $line, $only_known ) {
		if ( false === strpos( $line, ':' ) || 0 === strpos( $line, '#' ) || 0 === strpos( $line, '=' ) ) {
			return null;
		}
		list( $key, $value ) = explode( ':', $line, 2 );
		$key                 = strtolower( trim( $key, " \t*-\r\n" ) );
		if ( $only_known && ! isset( self::README_HEADERS[ $key ] ) ) {
			return null;
		}
		return array( $key, trim( $value, " \t*-\r\n" ) );
	}

	/**
	 * Whether a line starts a section ("== Title ==" or "## Title").
	 *
	 * @param string $line The line.
	 */
	private static function is_section_heading( $line ) {
		$trimmed = trim( $line );
		return 0 === strpos( $trimmed, '==' ) || ( 0 === strpos( $trimmed, '##' ) && 0 !== strpos( $trimmed, '###' ) );
	}

	/**
	 * A "Tested up to" or "Requires at least" value as the parser keeps it: '' when absent, null when ignored.
	 *
	 * @param string   $value   The header's value.
	 * @param string[] $strip   Words the parser removes first.
	 * @param string   $current The current WordPress major.minor.
	 * @return string|null
	 */
	private static function sanitize_wordpress_version( $value, array $strip, $current ) {
		$version = trim( str_ireplace( $strip, '', trim( $value ) ) );
		if ( '' === $version ) {
			return '';
		}
		$version = explode( '-', $version )[0];
		if ( ! preg_match( '!^\d+\.\d(\.\d+)?$!', $version ) || version_compare( self::major_minor( $version ), self::next_major( $current ), '>' ) ) {
			return null;
		}
		return $version;
	}

	/**
	 * The header of the plugin's main file, as WordPress's get_file_data() reads it (first 8 KiB).
	 *
	 * @param string $source The main file.
	 * @return array<string, string>
	 */
	public static function plugin_header( $source ) {
		$source = str_replace( "\r", "\n", substr( $source, 0, 8192 ) );
		$header = array();
		foreach ( self::PLUGIN_HEADERS as $field => $label ) {
			$header[ $field ] = preg_match( '/^(?:[ \t]*<\?php)?[ \t\/*#@]*' . preg_quote( $label, '/' ) . ':(.*)$/mi', $source, $match )
				? trim( (string) preg_replace( '/\s*(?:\*\/|\?>).*/', '', $match[1] ) )
				: '';
		}
		return $header;
	}

	/**
	 * The PHP file at the top of the plugin folder that carries the plugin header, or null.
	 *
	 * @param string $plugin_dir The plugin's folder.
	 */
	private static function main_file( $plugin_dir ) {
		foreach ( (array) glob( $plugin_dir . '/*.php' ) as $file ) {
			if ( '' !== self::plugin_header( (string) file_get_contents( (string) $file ) )['Name'] ) { // phpcs:ignore WordPress.WP.AlternativeFunctions -- a local file, outside WordPress.
				return (string) $file;
			}
		}
		return null;
	}

	/**
	 * The plugin's readme.txt (or readme.md), whatever its case, or null.
	 *
	 * @param string $plugin_dir The plugin's folder.
	 */
	private static function readme_file( $plugin_dir ) {
		foreach ( (array) glob( $plugin_dir . '/*' ) as $file ) {
			if ( in_array( strtolower( basename( (string) $file ) ), array( 'readme.txt', 'readme.md' ), true ) ) {
				return (string) $file;
			}
		}
		return null;
	}

	/**
	 * A license as Plugin Check compares them ("GPLv2 or later" and "GPL-2.0-or-later" are both "GPL2").
	 *
	 * @param string $license The declared license.
	 */
	private static function normalize_license( $license ) {
		$license = str_replace( '  ', ' ', trim( $license ) );
		foreach ( array( '.', 'http://www.gnu.org/licenses/old-licenses/gpl-2.0.html', 'https://www.gnu.org/licenses/old-licenses/gpl-2.0.html', 'https://www.gnu.org/licenses/gpl-3.0.html', ' or later', '-or-later', '+' ) as $suffix ) {
			if ( '' !== $license && substr( $license, -strlen( $suffix ) ) === $suffix ) {
				$license = trim( substr( $license, 0, -strlen( $suffix ) ) );
			}
		}
		$license = str_replace( array( '-', 'GNU General Public License (GPL)', 'GNU General Public License', ' version ' ), array( '', 'GPL', 'GPL', 'v' ), $license );
		$license = (string) preg_replace( '/GPL\s*[-|\.]*\s*[v]?([0-9])(\.[0])?/i', 'GPL$1', $license, 1 );
		return str_replace( '.', '', $license );
	}

	/**
	 * Whether a normalised license is one the directory accepts.
	 *
	 * @param string $license The normalised license.
	 */
	private static function is_gpl_compatible( $license ) {
		return (bool) preg_match( '/GPL|GNU|MIT|FreeBSD|New BSD|BSD-3-Clause|BSD 3 Clause|OpenLDAP|Expat|Apache|MPL20|MPL-2.0/im', $license );
	}

	/**
	 * Whether a header names an http(s) URL, as Plugin Check's is_valid_url.
	 *
	 * @param string $url The header's value.
	 */
	private static function is_valid_url( $url ) {
		return filter_var( $url, FILTER_VALIDATE_URL ) === $url && 0 === strpos( $url, 'http' );
	}

	/**
	 * Whether a URL's host is one Plugin Check discourages (or a subdomain of one).
	 *
	 * @param string $url The URL.
	 */
	private static function discouraged_domain( $url ) {
		$host = strtolower( (string) parse_url( $url, PHP_URL_HOST ) ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress's wp_parse_url is not loaded here.
		foreach ( self::DISCOURAGED_DOMAINS as $domain ) {
			if ( $host === $domain || substr( $host, -strlen( ".$domain" ) ) === ".$domain" ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Readme markup as the directory shows it, for its length: Markdown emphasis, code and links to their text.
	 *
	 * @param string $text Readme text.
	 */
	private static function plain_text( $text ) {
		$text = (string) preg_replace( '/\[([^\]]*)\]\([^)]*\)/', '$1', $text );
		return html_entity_decode( trim( str_replace( array( '**', '__', '`' ), '', $text ) ), ENT_QUOTES | ENT_HTML401 );
	}

	/**
	 * "7.1.0" → "7.1".
	 *
	 * @param string $version A version.
	 */
	private static function major_minor( $version ) {
		return preg_match( '/^\d+\.\d+/', $version, $match ) ? $match[0] : $version;
	}

	/**
	 * The release after a major.minor ("7.1" → "7.2"): the newest a readme may name.
	 *
	 * @param string $current A major.minor.
	 */
	private static function next_major( $current ) {
		return number_format( (float) $current + 0.1, 1, '.', '' );
	}

	/**
	 * Records an error.
	 *
	 * @param string $code    Plugin Check's code.
	 * @param string $message What is wrong.
	 */
	private function error( $code, $message ) {
		$this->findings[] = array(
			'type'    => 'ERROR',
			'code'    => $code,
			'message' => $message,
		);
	}

	/**
	 * Records a warning.
	 *
	 * @param string $code    Plugin Check's code.
	 * @param string $message What is wrong.
	 */
	private function warning( $code, $message ) {
		$this->findings[] = array(
			'type'    => 'WARNING',
			'code'    => $code,
			'message' => $message,
		);
	}
}

