<?php
/**
 * Flags syntax PHP 7.4 cannot parse. `php -l` runs on PHP 8.2 here, so it accepts all of it.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Sniffs\Compatibility;

use PHP_CodeSniffer\Files\File;
use PHP_CodeSniffer\Sniffs\Sniff;

final class Php74SyntaxSniff implements Sniff {

	/**
	 * Token name => what PHP version introduced it.
	 *
	 * @var array<string, string>
	 */
	private const NEWER = array(
		'T_MATCH'                      => 'match expressions (PHP 8.0)',
		'T_NULLSAFE_OBJECT_OPERATOR'   => 'the nullsafe operator ?-> (PHP 8.0)',
		'T_ATTRIBUTE'                  => 'attributes (PHP 8.0)',
		'T_PARAM_NAME'                 => 'named arguments (PHP 8.0)',
		'T_TYPE_UNION'                 => 'union types (PHP 8.0)',
		'T_TYPE_INTERSECTION'          => 'intersection types (PHP 8.1)',
		'T_ENUM'                       => 'enums (PHP 8.1)',
		'T_READONLY'                   => 'readonly properties (PHP 8.1)',
	);

	public function register() {
		$tokens = array( T_FUNCTION, T_CLOSURE, T_FN );
		foreach ( array_keys( self::NEWER ) as $name ) {
			if ( defined( $name ) ) {
				$tokens[] = constant( $name );
			}
		}
		return $tokens;
	}

	/**
	 * @param File $phpcs_file The file.
	 * @param int  $stack_ptr  The token.
	 */
	public function process( File $phpcs_file, $stack_ptr ) {
		$tokens = $phpcs_file->getTokens();
		$type   = $tokens[ $stack_ptr ]['type'];
		if ( isset( self::NEWER[ $type ] ) ) {
			$phpcs_file->addError( 'PHP 7.4 does not support %s.', $stack_ptr, 'Found', array( self::NEWER[ $type ] ) );
			return;
		}
		$this->check_parameters( $phpcs_file, $stack_ptr );
	}

	/**
	 * Constructor promotion, `mixed`/`static`/`never` types and a trailing comma after the last parameter are PHP 8+.
	 *
	 * @param File $phpcs_file The file.
	 * @param int  $stack_ptr  A function token.
	 */
	private function check_parameters( File $phpcs_file, $stack_ptr ) {
		foreach ( $phpcs_file->getMethodParameters( $stack_ptr ) as $parameter ) {
			if ( ! empty( $parameter['property_visibility'] ) ) {
				$phpcs_file->addError( 'PHP 7.4 does not support constructor property promotion.', $parameter['token'], 'Found' );
			}
			if ( 'mixed' === strtolower( ltrim( $parameter['type_hint'], '?' ) ) ) {
				$phpcs_file->addError( 'PHP 7.4 does not support the mixed type.', $parameter['token'], 'Found' );
			}
		}
		$properties = $phpcs_file->getMethodProperties( $stack_ptr );
		if ( in_array( strtolower( ltrim( $properties['return_type'], '?' ) ), array( 'mixed', 'static', 'never' ), true ) ) {
			$phpcs_file->addError( 'PHP 7.4 does not support the %s return type.', $stack_ptr, 'Found', array( $properties['return_type'] ) );
		}
		$tokens = $phpcs_file->getTokens();
		if ( isset( $tokens[ $stack_ptr ]['parenthesis_closer'] ) ) {
			$last = $phpcs_file->findPrevious( \PHP_CodeSniffer\Util\Tokens::$emptyTokens, $tokens[ $stack_ptr ]['parenthesis_closer'] - 1, null, true );
			if ( false !== $last && T_COMMA === $tokens[ $last ]['code'] ) {
				$phpcs_file->addError( 'PHP 7.4 does not allow a trailing comma after the last parameter.', $last, 'Found' );
			}
		}
	}
}
