#!/usr/bin/env node
// The CLI runs the compiled code in dist/ (built by `npm install` through the prepare script).
import '../dist/main.js';
