<?php
/**
 * The chat's answer page for a visitor without JavaScript: visitor text and the model's lines escaped as text.
 *
 * @package Sitebeam
 *
 * @var array<string, mixed> $outcome  The JSON answer.
 * @var bool                 $answered Whether the model answered.
 * @var string               $message  What the visitor sent.
 * @var string               $back     The page the visitor came from, on this site, or ''.
 * @var array                $form     The form's values (templates/chat-form.php).
 */

use Sitebeam\Contract;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}
$sitebeam_title = $answered ? __( 'Chat answer', 'sitebeam' ) : __( 'Message not sent', 'sitebeam' );
?>
<!doctype html>
<html lang="<?php echo esc_attr( get_bloginfo( 'language' ) ); ?>">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title><?php echo esc_html( $sitebeam_title ); ?></title>
<style>body{font-family:system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}textarea{width:100%;box-sizing:border-box;font:inherit}p{white-space:pre-wrap}</style>
<main>
<h1><?php echo esc_html( $sitebeam_title ); ?></h1>
<?php if ( $answered ) : ?>
<section aria-labelledby="sitebeam-chat-asked">
	<h2 id="sitebeam-chat-asked"><?php esc_html_e( 'You', 'sitebeam' ); ?></h2>
	<p><?php echo esc_html( trim( $message ) ); ?></p>
</section>
<section aria-labelledby="sitebeam-chat-answer">
	<?php /* translators: %s: a model's name. */ ?>
	<h2 id="sitebeam-chat-answer"><?php echo esc_html( sprintf( __( 'Answer (%s)', 'sitebeam' ), (string) $outcome[ Contract::CHAT_RESPONSE_FIELD_MODEL ] ) ); ?></h2>
	<?php foreach ( (array) $outcome[ Contract::CHAT_RESPONSE_FIELD_RESPONSE ] as $sitebeam_line ) : ?>
	<p><?php echo esc_html( (string) $sitebeam_line ); ?></p>
	<?php endforeach; ?>
	<?php if ( isset( $outcome[ Contract::CHAT_RESPONSE_FIELD_SCORE ] ) ) : ?>
		<?php /* translators: %s: the model's score. */ ?>
	<p><?php echo esc_html( sprintf( __( 'Score: %s', 'sitebeam' ), (string) $outcome[ Contract::CHAT_RESPONSE_FIELD_SCORE ] ) ); ?></p>
	<?php endif; ?>
</section>
<?php else : ?>
<p role="alert"><?php echo esc_html( (string) ( $outcome[ Contract::RESPONSE_FIELD_ERROR ] ?? '' ) ); ?></p>
<?php endif; ?>
<?php require __DIR__ . '/chat-form.php'; ?>
<?php if ( '' !== $back ) : ?>
<p><a href="<?php echo esc_url( $back ); ?>"><?php esc_html_e( 'Back to the site', 'sitebeam' ); ?></a></p>
<?php endif; ?>
</main>
</html>
