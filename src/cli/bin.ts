/**
 * The `hookwise` executable (dist/cli.js): loads the CLI bundle (dist/cliMain.js, built from
 * main.ts) through V8's code cache, so start-up does not re-parse it on every run.
 */
import path from 'node:path';
import { requireWithCompileCache } from './compileCache';

requireWithCompileCache(path.join(__dirname, 'cliMain.js'));
