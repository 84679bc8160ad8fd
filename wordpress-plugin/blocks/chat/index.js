import { registerBlockType } from '@wordpress/blocks';
import metadata from './block.json';
import Edit from './edit';

// Rendered by PHP (Chat_Widget::render), so the saved post holds only the block comment.
registerBlockType(metadata.name, { edit: Edit, save: () => null });
