// SPDX-License-Identifier: BSD-2-Clause
// Headless Chromium for the browser tests and benches: @sparticuz/chromium
// and puppeteer-core from the npm folder the CI step installed, launched
// with the flags every run needs and any the caller adds.
//
// A launch is tried up to three times. Chromium sometimes dies while
// starting on a loaded machine: CI saw "Failed to launch the browser
// process: Code: null" with no stderr, one second in, in a run whose
// previous browser test had passed. That says nothing about the page under
// test, so only the launch is retried. A page's failure is never retried.
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const BASE = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

export function loadChromium(modulesDir) {
  const require = createRequire(join(resolve(modulesDir), "x.js"));
  const mod = require("@sparticuz/chromium");
  return { chromium: mod.default ?? mod, puppeteer: require("puppeteer-core") };
}

// lambdaArgs false: none of @sparticuz/chromium's own arguments (a
// Lambda's: one process, no site isolation).
export async function launchChromium(modulesDir, { args = [], lambdaArgs = true, tries = 3, ...options } = {}) {
  const { chromium, puppeteer } = loadChromium(modulesDir);
  const all = [...(lambdaArgs ? chromium.args : []), ...BASE, ...args];
  const executablePath = await chromium.executablePath();
  for (let i = 1; ; i++) {
    try {
      return await puppeteer.launch({ executablePath, args: all, headless: "shell", ...options });
    } catch (e) {
      if (i >= tries) throw e;
      console.error(`chromium: launch ${i} of ${tries} failed (${String(e.message).split("\n")[0]}); again`);
      await new Promise((r) => setTimeout(r, 2000 * i));
    }
  }
}
