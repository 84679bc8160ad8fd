<?php
/**
 * The settings form's fields: their section, label, input type and help; one renderer for all.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Chat\Chat_Config;
use Sitebeam\Chat\Daily_Budget;
use Sitebeam\Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The settings form's fields: their section, label, input type and help; one renderer for all.
 */
final class Settings_Fields {

	/** Field types made of several inputs: their row has no single label. */
	const GROUPS = array( 'checkbox', 'roles', 'chat_models', 'chat_settings' );

	/**
	 * Every field of the settings form, by setting key.
	 *
	 * @return array<string, array{section: string, label: string, type: string, help: string}>
	 */
	public static function all() {
		return array(
			'api_url'          => self::field( 'connection', __( 'Instance URL', 'sitebeam' ), 'url', __( 'Address of your Sitebeam instance, for example https://api.example.com: https (http only for localhost), no path.', 'sitebeam' ) ),
			'api_token'        => self::field( 'connection', __( 'API token', 'sitebeam' ), 'password', __( 'Stored on the server only and never shown again. Leave empty to keep the current token. Recommended: define SITEBEAM_API_TOKEN and SITEBEAM_API_URL in wp-config.php instead, so that the token is never in the database (its backups and exports) and no one can change it from this page.', 'sitebeam' ) ),
			'website'          => self::field( 'tracker', __( 'Website name', 'sitebeam' ), 'text', __( 'The name visits are recorded under. Default: this site’s host name.', 'sitebeam' ) ),
			'tracker'          => self::field( 'tracker', __( 'Tracker', 'sitebeam' ), 'checkbox', __( 'Record page views with the Sitebeam tracker.', 'sitebeam' ) ),
			'excluded_roles'   => self::field( 'tracker', __( 'Roles not tracked', 'sitebeam' ), 'roles', __( 'Logged-in users with these roles are never tracked.', 'sitebeam' ) ),
			'respect_dnt'      => self::field( 'tracker', __( 'Do Not Track', 'sitebeam' ), 'checkbox', __( 'Respect the visitor’s Do Not Track and Global Privacy Control signals.', 'sitebeam' ) ),
			'noscript'         => self::field( 'tracker', __( 'Noscript pixel', 'sitebeam' ), 'checkbox', __( 'Also count visitors without JavaScript with a hidden image.', 'sitebeam' ) ),
			'keep_query'       => self::field( 'tracker', __( 'Keep query parameters', 'sitebeam' ), 'text', __( 'The query parameters a page’s address keeps in the visit record, separated by commas (* in a name matches any characters), or * for all. Empty: only the campaign parameters (utm_source, utm_medium, utm_campaign, utm_term, utm_content), so that tokens and email addresses in links are never recorded. Unless you keep all, visitors without JavaScript are recorded with your site’s address only.', 'sitebeam' ) ),
			'wait_for_consent' => self::field( 'tracker', __( 'Wait for consent', 'sitebeam' ), 'checkbox', __( 'Send nothing until the visitor agrees: your consent banner calls sitebeam.consent(true). With the WP Consent API plugin active, the tracker always waits for consent to statistics.', 'sitebeam' ) ),
			'route_mail'       => self::field( 'mail', __( 'Route site mail', 'sitebeam' ), 'checkbox', __( 'Send every email of this site through the Sitebeam API.', 'sitebeam' ) ),
			'fallback'         => self::field( 'mail', __( 'Fallback to PHP’s mailer', 'sitebeam' ), 'checkbox', __( 'Off by default. When on, a mail the instance refuses for good (for example a 422), or that the full outbox cannot keep, is sent instead by WordPress’s own mailer, PHP’s mail() on this server: it then leaves without Sitebeam, from this server’s address, and may land in spam. When off, such a mail fails and the send log says why. A mail the instance cannot take for a passing reason always waits in the outbox, whatever this says.', 'sitebeam' ) ),
			'outbox_lifetime'  => self::field( 'mail', __( 'Outbox: give up after', 'sitebeam' ), 'number', __( 'Hours a mail waiting in the outbox (Tools → Sitebeam outbox) is tried before it is given up and shown as failed. Default: 72.', 'sitebeam' ) ),
			'outbox_max_mails' => self::field( 'mail', __( 'Outbox: at most', 'sitebeam' ), 'number', __( 'Mails the outbox keeps; beyond that a new mail the instance cannot take fails at once. Default: 1000.', 'sitebeam' ) ),
			'outbox_max_mb'    => self::field( 'mail', __( 'Outbox: size limit', 'sitebeam' ), 'number', __( 'Megabytes the outbox keeps (attachments included); beyond that a new mail the instance cannot take fails at once. Default: 50.', 'sitebeam' ) ),
			'outbox_contacts'  => self::field( 'mail', __( 'Outbox: contact messages’ share', 'sitebeam' ), 'number', __( 'Percent of the outbox (mails and megabytes) that contact-form messages may take; the site’s own mail (password resets, orders) has the rest to itself, so a flood of contact posts never takes its room. Beyond its share a contact post is answered “try again”. 0: contact messages are never kept. Default: 50.', 'sitebeam' ) ),
			'outbox_keep_days' => self::field( 'mail', __( 'Outbox: keep failed mail', 'sitebeam' ), 'number', __( 'Days a mail given up (shown as failed in Tools → Sitebeam outbox, with its content) is kept before it is deleted. Default: 30.', 'sitebeam' ) ),
			'contact_to'       => self::field( 'contact', __( 'Contact recipient', 'sitebeam' ), 'email', __( 'Where contact form messages go. Default: the site’s admin email.', 'sitebeam' ) ),
			'contact_success'  => self::field( 'contact', __( 'Success message', 'sitebeam' ), 'text', __( 'Shown to the visitor once the message is sent.', 'sitebeam' ) ),
			'contact_consent'  => self::field( 'contact', __( 'Ask for consent', 'sitebeam' ), 'text', __( 'The label of a checkbox every visitor must tick to send a message, for example “I agree that my message is stored to answer me.” Your mail says the visitor agreed. Leave empty for no checkbox.', 'sitebeam' ) ),
			'contact_policy'   => self::field( 'contact', __( 'Privacy policy link', 'sitebeam' ), 'url', __( 'Shown beside the consent checkbox. Default: this site’s privacy policy page (Settings → Privacy), when one is published.', 'sitebeam' ) ),
			'chat_enabled'     => self::field( 'chat', __( 'Chat', 'sitebeam' ), 'checkbox', __( 'Let visitors chat with the allowed models (the Sitebeam chat block and the [sitebeam_chat] shortcode).', 'sitebeam' ) ),
			'chat_models'      => self::field( 'chat', __( 'Allowed models', 'sitebeam' ), 'chat_models', __( 'The models visitors may choose from, as the instance lists them; the default one answers when a visitor does not choose.', 'sitebeam' ) ),
			'chat_settings'    => self::field( 'chat', __( 'Prompt settings', 'sitebeam' ), 'chat_settings', __( 'Sent with every visitor’s message; leave a setting empty for the instance’s default. Visitors never change them.', 'sitebeam' ) ),
			'chat_rate_limit'  => self::field( 'chat', __( 'Chat rate limit', 'sitebeam' ), 'number', __( 'Messages a visitor may send per minute.', 'sitebeam' ) ),
			/* translators: %d: the default daily limit. */
			'chat_daily_limit' => self::field( 'chat', __( 'Daily chat limit', 'sitebeam' ), 'number', sprintf( __( 'Messages the whole site may send to the model per day (UTC), all visitors together; on a network, all its sites together. Then the chat is closed until midnight UTC. Empty: %d. 0: no limit, so anyone may spend your model quota.', 'sitebeam' ), Chat_Config::DEFAULT_DAILY_LIMIT ) ),
			'chat_consent'     => self::field( 'chat', __( 'Ask for consent', 'sitebeam' ), 'text', __( 'The label of a checkbox every visitor must tick to send a message to the chat. Leave empty for no checkbox.', 'sitebeam' ) ),
			'chat_policy'      => self::field( 'chat', __( 'Privacy policy link', 'sitebeam' ), 'url', __( 'Shown beside the chat’s consent checkbox. Default: this site’s privacy policy page (Settings → Privacy), when one is published.', 'sitebeam' ) ),
		) + ( is_multisite() ? array(
			'chat_site_admins' => self::field( 'chat', __( 'Site administrators', 'sitebeam' ), 'checkbox', __( 'Let each site’s administrators use the chat console (Sitebeam → Chat): list, load and prompt the instance’s models with any setting, on the network’s token. Unticked: super admins only.', 'sitebeam' ) ),
		) : array() );
	}

	/**
	 * Prints one field, read-only when wp-config.php fixes it.
	 *
	 * @param array{key: string} $args Field key.
	 */
	public static function render( $args ) {
		$key      = $args['key'];
		$field    = self::all()[ $key ];
		$settings = Settings::get();
		$name     = Settings::OPTION . '[' . $key . ']';
		$id       = 'sitebeam-' . $key;
		$fixed    = Settings::is_fixed( $key );
		switch ( $field['type'] ) {
			case 'password':
				printf(
					'<input type="password" id="%s" name="%s" value="" class="regular-text" autocomplete="new-password" placeholder="%s" %s>',
					esc_attr( $id ),
					esc_attr( $name ),
					esc_attr( Settings::has_token() ? __( 'A token is stored', 'sitebeam' ) : __( 'No token yet', 'sitebeam' ) ),
					disabled( $fixed, true, false )
				);
				if ( Settings::has_token() && ! $fixed ) {
					printf(
						' <label><input type="checkbox" name="%s" value="1"> %s</label>',
						esc_attr( Settings::OPTION . '[remove_token]' ),
						esc_html__( 'Remove the stored token', 'sitebeam' )
					);
				}
				break;
			case 'checkbox':
				printf(
					'<label><input type="checkbox" id="%s" name="%s" value="1" %s %s> %s</label>',
					esc_attr( $id ),
					esc_attr( $name ),
					checked( (bool) $settings[ $key ], true, false ),
					disabled( $fixed, true, false ),
					esc_html( $field['help'] )
				);
				break;
			case 'chat_models':
				Chat_Settings_Fields::render_models( $name, (array) $settings[ $key ] );
				break;
			case 'chat_settings':
				Chat_Settings_Fields::render_prompt_settings( $name, (array) $settings[ $key ] );
				break;
			case 'roles':
				foreach ( wp_roles()->get_names() as $role => $role_name ) {
					printf(
						'<label><input type="checkbox" name="%s[]" value="%s" %s> %s</label><br>',
						esc_attr( $name ),
						esc_attr( $role ),
						checked( in_array( $role, (array) $settings[ $key ], true ), true, false ),
						esc_html( translate_user_role( $role_name ) )
					);
				}
				break;
			default:
				printf(
					'<input type="%s" id="%s" name="%s" value="%s" class="regular-text" %s>',
					esc_attr( $field['type'] ),
					esc_attr( $id ),
					esc_attr( $name ),
					esc_attr( (string) $settings[ $key ] ),
					disabled( $fixed, true, false )
				);
		}
		if ( 'checkbox' !== $field['type'] ) {
			printf( '<p class="description">%s</p>', esc_html( $field['help'] ) );
		}
		if ( 'chat_daily_limit' === $key ) {
			self::render_daily_count();
		}
		if ( $fixed ) {
			printf(
				'<p class="description sitebeam-fixed">%s</p>',
				/* translators: %s: constant name. */
				esc_html( sprintf( __( 'Set in wp-config.php by %s: shown read-only.', 'sitebeam' ), 'api_token' === $key ? Settings::TOKEN_CONSTANT : Settings::CONSTANTS[ $key ] ) )
			);
		}
	}

	/**
	 * Today's count of chat messages beside the daily limit.
	 */
	private static function render_daily_count() {
		$limit = Chat_Config::daily_limit();
		$count = Daily_Budget::count( time() );
		printf(
			'<p class="sitebeam-chat-today">%s</p>',
			esc_html(
				0 === $limit
					/* translators: %s: messages sent today. */
					? sprintf( _n( 'Today (UTC): %s message, no limit.', 'Today (UTC): %s messages, no limit.', $count, 'sitebeam' ), number_format_i18n( $count ) )
					/* translators: 1: messages sent today, 2: the daily limit. */
					: sprintf( _n( 'Today (UTC): %1$s message of %2$s.', 'Today (UTC): %1$s messages of %2$s.', $count, 'sitebeam' ), number_format_i18n( $count ), number_format_i18n( $limit ) )
			)
		);
	}

	/**
	 * Describes one field.
	 *
	 * @param string $section Section id.
	 * @param string $label   Label.
	 * @param string $type    Input type.
	 * @param string $help    Help text.
	 * @return array{section: string, label: string, type: string, help: string}
	 */
	private static function field( $section, $label, $type, $help ) {
		return array(
			'section' => $section,
			'label'   => $label,
			'type'    => $type,
			'help'    => $help,
		);
	}
}
