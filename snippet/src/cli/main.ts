#!/usr/bin/env node
/// <reference types="node" />
// `sitebeam`: the command line of the Sitebeam API. `sitebeam --help` lists the commands.
import { buildProgram } from './program.js';

await buildProgram().parseAsync(process.argv);
