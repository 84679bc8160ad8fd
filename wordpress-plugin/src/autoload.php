<?php
/**
 * Maps Sitebeam\Sub\Class_Name to src/Sub/Class_Name.php.
 *
 * @package Sitebeam
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

spl_autoload_register(
	static function ( $class_name ) {
		if ( 0 !== strpos( $class_name, 'Sitebeam\\' ) ) {
			return;
		}
		$relative = str_replace( '\\', '/', substr( $class_name, strlen( 'Sitebeam\\' ) ) );
		$file     = __DIR__ . '/' . $relative . '.php';
		if ( is_readable( $file ) ) {
			require $file;
		}
	}
);
