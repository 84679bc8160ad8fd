<?php
/**
 * The plugin's blocks, "Sitebeam contact form" and "Sitebeam chat": each registered from its built block.json, with
 * its editor script, and rendered by PHP (the saved post holds only the block comment).
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use WP_Block_Type_Registry;

final class Blocks_Test extends Plugin_Test_Case {

	/**
	 * @return array<string, array{0: string, 1: string, 2: string}> Block name, title and editor script handle.
	 */
	public static function blocks() {
		return array(
			'contact form' => array( 'sitebeam/contact-form', 'Sitebeam contact form', 'sitebeam-contact-form-editor-script' ),
			'chat'         => array( 'sitebeam/chat', 'Sitebeam chat', 'sitebeam-chat-editor-script' ),
		);
	}

	/**
	 * @dataProvider blocks
	 *
	 * @param string $name          The block's name.
	 * @param string $title         Its title in the editor.
	 * @param string $editor_script Its editor script's handle.
	 */
	#[DataProvider( 'blocks' )]
	public function test_the_block_is_registered_from_the_built_metadata( $name, $title, $editor_script ) {
		$block = WP_Block_Type_Registry::get_instance()->get_registered( $name );
		$this->assertNotNull( $block );
		$this->assertSame( $title, $block->title );
		$this->assertSame( array( $editor_script ), $block->editor_script_handles );
		$this->assertTrue( wp_script_is( $editor_script, 'registered' ) );
		$this->assertTrue( $block->is_dynamic() );
	}
}
