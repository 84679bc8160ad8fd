<?php
/**
 * Must-use plugin of the TEST site only (never shipped): quiet offline admin, a tracker that runs on 127.0.0.1
 * under automation, and a REST route through which end-to-end tests call wp_mail and read what happened.
 *
 * @package Sitebeam\Tests
 */

const SITEBEAM_TEST_STATE = 'sitebeam_test_state';

// The stub listens on 127.0.0.1, which wp_safe_remote_request refuses: the test site allows private hosts, as
// wp-config.php would, unless a test asks to see the site as a production site with such a URL saved
// (PUT sitebeam-test/v1/private-hosts {"allowed": false}).
const SITEBEAM_TEST_NO_PRIVATE_HOSTS = 'sitebeam_test_no_private_hosts';
if ( ! get_option( SITEBEAM_TEST_NO_PRIVATE_HOSTS ) ) {
	define( 'SITEBEAM_ALLOW_PRIVATE_HOSTS', true );
}
// Options prefix under which install.php keeps what the site had once installed (settings, post IDs).
const SITEBEAM_TEST_INSTALLED = 'sitebeam_test_installed';

// Without network the update checks only log warnings.
remove_action( 'admin_init', '_maybe_update_core' );
remove_action( 'admin_init', '_maybe_update_plugins' );
remove_action( 'admin_init', '_maybe_update_themes' );

// The installer's "new site" mail has nowhere to go: there is no sendmail, and the plugin is not active yet.
if ( defined( 'WP_INSTALLING' ) && WP_INSTALLING ) {
	add_filter( 'pre_wp_mail', '__return_true' );
}

// The test site is on 127.0.0.1 and driven by an automated browser: the snippet skips both unless told.
add_filter(
	'sitebeam_tracker_attributes',
	static function ( $attributes ) {
		return $attributes + array(
			'data-track-localhost'  => 'true',
			'data-track-automation' => 'true',
		);
	}
);

const SITEBEAM_TEST_CONSENT_API = 'wp-consent-api/wp-consent-api.php';

// While the WP Consent API is on, visitors opt in: what a consent banner plugin declares through the API.
add_filter(
	'wp_get_consent_type',
	static function () {
		return 'optin';
	}
);

/**
 * Activates or deactivates the WP Consent API plugin.
 *
 * @param bool $active Whether it is active afterwards.
 */
function sitebeam_test_consent_api( $active ) {
	require_once ABSPATH . 'wp-admin/includes/plugin.php';
	if ( $active ) {
		activate_plugin( SITEBEAM_TEST_CONSENT_API );
	} elseif ( is_plugin_active( SITEBEAM_TEST_CONSENT_API ) ) {
		deactivate_plugins( SITEBEAM_TEST_CONSENT_API );
	}
}

// Translations a test fakes (the plugin's English text => the translation), as a language pack would give them.
const SITEBEAM_TEST_TRANSLATIONS = 'sitebeam_test_translations';
add_filter(
	'gettext_sitebeam',
	static function ( $translation, $text ) {
		return get_option( SITEBEAM_TEST_TRANSLATIONS, array() )[ $text ] ?? $translation;
	},
	10,
	2
);

function sitebeam_test_record( $key, $value ) {
	$state           = get_option( SITEBEAM_TEST_STATE, array() );
	$state[ $key ][] = $value;
	update_option( SITEBEAM_TEST_STATE, $state, false );
}

// What WordPress's own mailer was asked to send (the fallback); there is no sendmail, so it then fails.
add_action(
	'phpmailer_init',
	static function ( $phpmailer ) {
		sitebeam_test_record( 'phpmailer', array_column( $phpmailer->getToAddresses(), 0 ) );
	}
);
add_action(
	'wp_mail_failed',
	static function ( $error ) {
		sitebeam_test_record(
			'wp_mail_failed',
			array(
				'message' => $error->get_error_message(),
				'data'    => array_intersect_key( (array) $error->get_error_data(), array_flip( array( 'sitebeam_error_code', 'failed_recipients' ) ) ),
			)
		);
	}
);

add_action(
	'rest_api_init',
	static function () {
		// The test site listens on 127.0.0.1 only; these routes exist nowhere else.
		register_rest_route(
			'sitebeam-test/v1',
			'/mail',
			array(
				'methods'             => 'POST',
				'permission_callback' => '__return_true',
				'callback'            => 'sitebeam_test_send_mail',
			)
		);
		register_rest_route(
			'sitebeam-test/v1',
			'/state',
			array(
				array(
					'methods'             => 'GET',
					'permission_callback' => '__return_true',
					'callback'            => static function () {
						return get_option( SITEBEAM_TEST_STATE, array() );
					},
				),
				array(
					'methods'             => 'DELETE',
					'permission_callback' => '__return_true',
					'callback'            => static function () {
						delete_option( SITEBEAM_TEST_STATE );
						return array();
					},
				),
			)
		);
		register_rest_route(
			'sitebeam-test/v1',
			'/upstream',
			array(
				'methods'             => array( 'PUT', 'DELETE' ),
				'permission_callback' => '__return_true',
				'callback'            => static function ( WP_REST_Request $request ) {
					if ( 'DELETE' === $request->get_method() ) {
						return delete_option( SITEBEAM_TEST_UPSTREAM );
					}
					return update_option( SITEBEAM_TEST_UPSTREAM, (array) $request->get_json_params() );
				},
			)
		);
		register_rest_route(
			'sitebeam-test/v1',
			'/page',
			array(
				'methods'             => 'POST',
				'permission_callback' => '__return_true',
				'callback'            => static function ( WP_REST_Request $request ) {
					$id = wp_insert_post(
						array(
							'post_type'    => 'page',
							'post_status'  => 'publish',
							'post_title'   => (string) $request['title'],
							'post_content' => (string) $request['content'],
						)
					);
					return array( 'link' => get_permalink( $id ) );
				},
			)
		);
		register_rest_route(
			'sitebeam-test/v1',
			'/outbox',
			array(
				array(
					'methods'             => 'GET',
					'permission_callback' => '__return_true',
					'callback'            => static function () {
						return Sitebeam\Mail\Outbox::rows();
					},
				),
				array(
					'methods'             => 'DELETE',
					'permission_callback' => '__return_true',
					'callback'            => static function () {
						sitebeam_test_empty_outbox();
						return array();
					},
				),
				// Time passes: every kept mail was written `age` seconds earlier (and is due), then cron runs if `run`.
				array(
					'methods'             => 'POST',
					'permission_callback' => '__return_true',
					'callback'            => static function ( WP_REST_Request $request ) {
						global $wpdb;
						$wpdb->query( $wpdb->prepare( 'UPDATE ' . Sitebeam\Mail\Outbox::table() . ' SET created_at = created_at - %d', (int) $request['age'] ) ); // phpcs:ignore -- test fixture.
						Sitebeam\Mail\Outbox::make_due();
						return $request['run'] ? Sitebeam\Mail\Outbox_Sender::run() : array();
					},
				),
			)
		);
		register_rest_route(
			'sitebeam-test/v1',
			'/user',
			array(
				'methods'             => 'POST',
				'permission_callback' => '__return_true',
				'callback'            => static function ( WP_REST_Request $request ) {
					return array(
						'id' => wp_insert_user(
							array(
								'user_login' => (string) $request['login'],
								'user_email' => (string) $request['email'],
								'user_pass'  => $request['password'] ? (string) $request['password'] : wp_generate_password(),
							)
						),
					);
				},
			)
		);
		register_rest_route(
			'sitebeam-test/v1',
			'/rate-limits',
			array(
				'methods'             => 'DELETE',
				'permission_callback' => '__return_true',
				'callback'            => static function () {
					global $wpdb;
					$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_rl\\_%'" ); // phpcs:ignore -- test fixture.
					$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_chat\\_day\\_%'" ); // phpcs:ignore -- and the daily chat count.
					return array();
				},
			)
		);
		register_rest_route(
			'sitebeam-test/v1',
			'/translations',
			array(
				'methods'             => 'PUT',
				'permission_callback' => '__return_true',
				'callback'            => static function ( WP_REST_Request $request ) {
					update_option( SITEBEAM_TEST_TRANSLATIONS, (array) $request->get_json_params() );
					return array();
				},
			)
		);
		register_rest_route(
			'sitebeam-test/v1',
			'/settings',
			array(
				'methods'             => 'POST',
				'permission_callback' => '__return_true',
				'callback'            => static function ( WP_REST_Request $request ) {
					$settings = array_merge( get_option( 'sitebeam_settings', array() ), (array) $request->get_json_params() );
					update_option( 'sitebeam_settings', $settings );
					return $settings;
				},
			)
		);
		// Turns the WP Consent API plugin on (`{"active": true}`) or off, with an opt-in consent type as a banner
		// plugin would set it; 404 when the plugin is not installed (env.sh installs it from $SITEBEAM_PLATFORMS).
		register_rest_route(
			'sitebeam-test/v1',
			'/consent-api',
			array(
				'methods'             => 'PUT',
				'permission_callback' => '__return_true',
				'callback'            => static function ( WP_REST_Request $request ) {
					if ( ! file_exists( WP_PLUGIN_DIR . '/' . SITEBEAM_TEST_CONSENT_API ) ) {
						return new WP_Error( 'not_installed', 'The WP Consent API plugin is not installed.', array( 'status' => 404 ) );
					}
					sitebeam_test_consent_api( (bool) $request->get_param( 'active' ) );
					return array( 'active' => is_plugin_active( SITEBEAM_TEST_CONSENT_API ) );
				},
			)
		);
		register_rest_route(
			'sitebeam-test/v1',
			'/private-hosts',
			array(
				'methods'             => 'PUT',
				'permission_callback' => '__return_true',
				'callback'            => static function ( WP_REST_Request $request ) {
					if ( $request->get_param( 'allowed' ) ) {
						return delete_option( SITEBEAM_TEST_NO_PRIVATE_HOSTS );
					}
					return update_option( SITEBEAM_TEST_NO_PRIVATE_HOSTS, 1 );
				},
			)
		);
		// Activates Sitebeam again after a test deactivated it (the outbox routes need its classes).
		register_rest_route(
			'sitebeam-test/v1',
			'/sitebeam-active',
			array(
				'methods'             => 'PUT',
				'permission_callback' => '__return_true',
				'callback'            => static function () {
					require_once ABSPATH . 'wp-admin/includes/plugin.php';
					return array( 'activated' => null === activate_plugin( 'sitebeam/sitebeam.php' ) );
				},
			)
		);
		// The site as install.php left it: its settings, no faked translation or service, no recorded state, and
		// none of the posts and pages (blocks) a test added. Each spec starts and ends with it, so none sees another's.
		register_rest_route(
			'sitebeam-test/v1',
			'/site',
			array(
				'methods'             => 'DELETE',
				'permission_callback' => '__return_true',
				'callback'            => static function () {
					update_option( 'sitebeam_settings', get_option( SITEBEAM_TEST_INSTALLED . '_settings' ) );
					delete_option( SITEBEAM_TEST_NO_PRIVATE_HOSTS );
					sitebeam_test_consent_api( false );
					delete_option( SITEBEAM_TEST_TRANSLATIONS );
					delete_option( SITEBEAM_TEST_STATE );
					delete_option( SITEBEAM_TEST_UPSTREAM );
					sitebeam_test_empty_outbox();
					$added = get_posts(
						array(
							'post_type'   => array( 'post', 'page' ),
							'post_status' => 'any',
							'numberposts' => -1,
							'fields'      => 'ids',
							'exclude'     => get_option( SITEBEAM_TEST_INSTALLED . '_posts' ),
						)
					);
					foreach ( $added as $id ) {
						wp_delete_post( $id, true );
					}
					return array( 'deleted_posts' => count( $added ) );
				},
			)
		);
	}
);

/**
 * Calls wp_mail with the posted to/subject/message/headers; `attachments` are [name, content] pairs written to temp files.
 *
 * @param WP_REST_Request $request The test's request.
 */
function sitebeam_test_send_mail( WP_REST_Request $request ) {
	$params = $request->get_json_params();
	$dir    = trailingslashit( get_temp_dir() ) . 'sitebeam-test-' . wp_generate_password( 8, false );
	wp_mkdir_p( $dir );
	$paths = array();
	foreach ( (array) ( $params['attachments'] ?? array() ) as $attachment ) {
		$path = $dir . '/' . sanitize_file_name( $attachment[0] );
		file_put_contents( $path, $attachment[1] ); // phpcs:ignore -- test fixture.
		$paths[] = $path;
	}
	$sent = wp_mail( $params['to'], $params['subject'], $params['message'], $params['headers'] ?? '', $paths );
	array_map( 'wp_delete_file', $paths );
	rmdir( $dir );
	return array( 'sent' => $sent );
}

// Set by the chat conformance runner: the API's answers to prompts are mocked (pre_http_request, as the cases say)
// and every prompt and model load the plugin sends is recorded in the test state. Set by upstream.spec.ts
// (PUT sitebeam-test/v1/upstream): the real service's answers to /v1/email, /v1/ai/models and loads, when given.
const SITEBEAM_TEST_UPSTREAM = 'sitebeam_test_upstream';
add_filter(
	'pre_http_request',
	static function ( $preempt, $args, $url ) {
		$upstream = get_option( SITEBEAM_TEST_UPSTREAM );
		$path     = (string) wp_parse_url( $url, PHP_URL_PATH );
		if ( ! is_array( $upstream ) ) {
			return $preempt;
		}
		if ( 0 === strpos( $path, '/v1/ai/model/' ) ) {
			sitebeam_test_record( 'loads', rawurldecode( substr( $path, strlen( '/v1/ai/model/' ) ) ) );
			$answer = $upstream['load'] ?? array(
				'status'  => 202,
				'headers' => array(),
				'body'    => array(
					'status' => 'ok',
					'model'  => rawurldecode( substr( $path, strlen( '/v1/ai/model/' ) ) ),
					'state'  => 'loading',
				),
			);
		} elseif ( isset( $upstream['email'] ) && '/v1/email' === $path ) {
			$answer = $upstream['email'];
		} elseif ( isset( $upstream['models'] ) && '/v1/ai/models' === $path ) {
			$answer = $upstream['models'];
		} elseif ( '/v1/ai/prompt' === $path && isset( $upstream['prompt'] ) ) {
			sitebeam_test_record( 'prompts', json_decode( (string) $args['body'], true ) );
			$answer = $upstream['prompt'];
		} else {
			return $preempt;
		}
		if ( 'unreachable' === $answer ) {
			return new WP_Error( 'http_request_failed', 'cURL error 7: Failed to connect (mocked)' );
		}
		return array(
			'headers'  => array_change_key_case( (array) $answer['headers'] ),
			'body'     => wp_json_encode( $answer['body'] ),
			'response' => array(
				'code'    => (int) $answer['status'],
				'message' => '',
			),
			'cookies'  => array(),
			'filename' => null,
		);
	},
	10,
	3
);

/**
 * Empties the outbox and forgets its lock, its cron events and what the last sends showed (the circuit breaker).
 */
function sitebeam_test_empty_outbox() {
	global $wpdb;
	Sitebeam\Mail\Outbox::maybe_install();
	$wpdb->query( 'DELETE FROM ' . Sitebeam\Mail\Outbox::table() ); // phpcs:ignore -- test fixture.
	$wpdb->delete( $wpdb->options, array( 'option_name' => Sitebeam\Mail\Outbox_Sender::LOCK_OPTION ) ); // phpcs:ignore -- test fixture.
	foreach ( array( Sitebeam\Mail\Outbox_Sender::HOOK, Sitebeam\Mail\Outbox_Sender::WATCH_HOOK, Sitebeam\Mail\Outbox_Sender::PURGE_HOOK ) as $hook ) {
		wp_clear_scheduled_hook( $hook );
	}
	delete_option( Sitebeam\Mail\Delivery_State::OPTION );
	delete_option( Sitebeam\Mail\Outbox_Sender::DRAINED_OPTION );
	// WP-Cron's lock: a run one test spawned must not keep another's wp-cron.php from running.
	delete_transient( 'doing_cron' );
}

// A page whose Content-Security-Policy lets images reach any host but connections only the site
// itself, as many hosts and themes set it: `?sitebeam_test_csp=images` (the tracker's pixel
// fallback is tested on it).
add_action(
	'send_headers',
	static function () {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- a test page's switch, no state changes.
		if ( isset( $_GET['sitebeam_test_csp'] ) && 'images' === $_GET['sitebeam_test_csp'] ) {
			header( "Content-Security-Policy: connect-src 'self'; img-src * data:" );
		}
	}
);
