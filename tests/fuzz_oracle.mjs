// The fuzz test's oracle (tests/test_markdown_fuzz.py): reads JSON lines {name, text} on stdin and
// writes JSON lines {name, shown, refused} with the markers (`zz…`) the real renderer shows, as
// scripts/record_probes.mjs judges them: micromark + GFM for `.md`, @mdx-js/mdx 3 + remark-gfm
// evaluated and rendered by react-dom/server for `.mdx` (every component a <div> with its title
// and children), the HTML parsed by parse5, text outside comments, script, style, template and
// noscript (and an image's alt) shown. NODE_MODULES names the folder holding those packages.
import readline from "node:readline";

import { render, shownText } from "../scripts/renderer_oracle.mjs";

const MARKER = /zz[0-9]+q/g;

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { name, text } = JSON.parse(line);
  let answer;
  try {
    answer = { name, shown: [...new Set(shownText(await render(name, text)).match(MARKER) ?? [])] };
  } catch (error) {
    answer = { name, refused: String(error.message ?? error).split("\n")[0] };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
