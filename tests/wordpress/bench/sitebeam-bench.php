<?php
/**
 * Must-use plugin of the BENCHMARK site only. A request with `X-Sitebeam-Bench: off` runs without the Sitebeam
 * plugin. Every front-end page ends with a comment giving its PHP time, its database queries and the time
 * spent in the plugin's own code: the include of its main file and every hook callback defined in its files.
 *
 * @package Sitebeam\Tests
 */

$GLOBALS['sitebeam_bench'] = array(
	'plugin_ns' => 0,
	'depth'     => 0,
	'start'     => 0,
);

if ( isset( $_SERVER['HTTP_X_SITEBEAM_BENCH'] ) && 'off' === $_SERVER['HTTP_X_SITEBEAM_BENCH'] ) {
	add_filter(
		'option_active_plugins',
		static function ( $plugins ) {
			return array_values( array_diff( (array) $plugins, array( 'sitebeam/sitebeam.php' ) ) );
		}
	);
}

// wp_get_active_and_valid_plugins() reads this option just before WordPress includes the plugins.
add_filter(
	'option_active_plugins',
	static function ( $plugins ) {
		$GLOBALS['sitebeam_bench']['start'] = hrtime( true );
		return $plugins;
	},
	PHP_INT_MAX
);

add_action(
	'plugin_loaded',
	static function ( $plugin ) {
		if ( false !== strpos( $plugin, '/sitebeam/sitebeam.php' ) ) {
			$GLOBALS['sitebeam_bench']['plugin_ns'] += hrtime( true ) - $GLOBALS['sitebeam_bench']['start'];
			sitebeam_bench_wrap_plugin_callbacks();
		}
	}
);
// The plugin adds its tag filter and footer action while enqueuing.
add_action( 'wp_enqueue_scripts', 'sitebeam_bench_wrap_plugin_callbacks', PHP_INT_MAX );

function sitebeam_bench_wrap_plugin_callbacks() {
	global $wp_filter;
	foreach ( $wp_filter as $hook_name => $hook ) {
		if ( doing_action( $hook_name ) ) {
			continue;
		}
		foreach ( $hook->callbacks as $priority => $callbacks ) {
			foreach ( $callbacks as $id => $callback ) {
				if ( sitebeam_bench_is_plugin_code( $callback['function'] ) ) {
					$hook->callbacks[ $priority ][ $id ]['function'] = sitebeam_bench_timed( $callback['function'] );
				}
			}
		}
	}
}

function sitebeam_bench_is_plugin_code( $callback ) {
	try {
		if ( is_array( $callback ) ) {
			$reflection = new ReflectionMethod( $callback[0], $callback[1] );
		} elseif ( is_string( $callback ) && false !== strpos( $callback, '::' ) ) {
			$reflection = new ReflectionMethod( $callback );
		} else {
			$reflection = new ReflectionFunction( $callback );
		}
	} catch ( ReflectionException $e ) {
		return false;
	}
	return false !== strpos( (string) $reflection->getFileName(), '/plugins/sitebeam/' );
}

function sitebeam_bench_timed( $callback ) {
	return static function ( ...$args ) use ( $callback ) {
		$state = &$GLOBALS['sitebeam_bench'];
		if ( $state['depth'] > 0 ) {
			return $callback( ...$args );
		}
		++$state['depth'];
		$started = hrtime( true );
		try {
			return $callback( ...$args );
		} finally {
			$state['plugin_ns'] += hrtime( true ) - $started;
			--$state['depth'];
		}
	};
}

add_action(
	'shutdown',
	static function () {
		global $wpdb;
		if ( is_admin() || wp_doing_ajax() || ( defined( 'REST_REQUEST' ) && REST_REQUEST ) ) {
			return;
		}
		printf(
			"\n<!-- sitebeam-bench ms=%.4f queries=%d plugin_ms=%.4f -->",
			( microtime( true ) - $_SERVER['REQUEST_TIME_FLOAT'] ) * 1000,
			(int) $wpdb->num_queries,
			$GLOBALS['sitebeam_bench']['plugin_ns'] / 1e6
		);
	},
	PHP_INT_MAX
);
