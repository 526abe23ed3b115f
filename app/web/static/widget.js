/* docschat widget: <docs-chat>, a dependency-free web component in shadow DOM.
 *
 * Embed on any docs site:
 *   <script src="https://HOST/docs/chat/widget.js" data-endpoint="https://HOST/docs/chat" defer></script>
 *
 * Ctrl/⌘-K opens a search view over GET /docs/search (data-search-endpoint, or the chat endpoint's
 * sibling /search): results as you type, arrow keys and Enter open one, "Ask the docs" hands the
 * query to the chat. Snippets arrive as text plus match offsets and are drawn as text nodes.
 *
 * The empty chat shows a greeting and example questions when given: the script's data-greeting and
 * data-examples ("First question? | Second question?"), else the server's WIDGET_GREETING and
 * WIDGET_EXAMPLES; the panel's title is data-title, else "Ask " + the server's SITE_NAME.
 *
 * Only the typed question is sent. Replies are rendered from Markdown straight into DOM nodes
 * (text as text nodes, never as HTML), and only http(s) or same-site links are kept, checked
 * after URL parsing: nothing from the model or the docs is ever executed.
 */
(function () {
  "use strict";
  if (customElements.get("docs-chat")) return;

  var script = document.currentScript;
  var defaultEndpoint = script
    ? script.dataset.endpoint || script.src.replace(/\/widget\.js(\?.*)?$/, "")
    : "/docs/chat";

  var STYLE = [
    ":host{--dc-bg:#fff;--dc-fg:#1a1a1a;--dc-muted:#5f6368;--dc-border:#d9dce1;--dc-accent:#2f5bea;",
    "--dc-accent-fg:#fff;--dc-bubble:#f2f4f7;--dc-error:#b3261e;all:initial;font:15px/1.5 system-ui,-apple-system,",
    "'Segoe UI',Roboto,sans-serif;color:var(--dc-fg)}",
    "@media (prefers-color-scheme:dark){:host{--dc-bg:#17181c;--dc-fg:#e8eaed;--dc-muted:#a0a4ab;",
    "--dc-border:#33363d;--dc-accent:#8ab4f8;--dc-accent-fg:#0b1a33;--dc-bubble:#24262c;--dc-error:#f28b82}}",
    "*{box-sizing:border-box}",
    "button{font:inherit;cursor:pointer;border-radius:8px;border:1px solid var(--dc-border);",
    "background:var(--dc-bg);color:var(--dc-fg);padding:6px 12px}",
    "button:focus-visible,textarea:focus-visible,a:focus-visible{outline:2px solid var(--dc-accent);outline-offset:2px}",
    ".launcher{position:fixed;right:16px;bottom:16px;z-index:2147483000;background:var(--dc-accent);",
    "color:var(--dc-accent-fg);border:none;padding:10px 16px;border-radius:999px;box-shadow:0 4px 14px rgba(0,0,0,.25)}",
    ".panel{position:fixed;right:16px;bottom:16px;z-index:2147483001;width:min(420px,calc(100vw - 16px));",
    "height:min(640px,calc(100vh - 32px));display:flex;flex-direction:column;background:var(--dc-bg);",
    "color:var(--dc-fg);border:1px solid var(--dc-border);border-radius:12px;box-shadow:0 10px 30px rgba(0,0,0,.3)}",
    "@media (max-width:480px){.panel{right:8px;left:8px;bottom:8px;width:auto;height:calc(100vh - 16px)}}",
    ".panel[hidden],.launcher[hidden],[hidden]{display:none!important}",
    "header{display:flex;align-items:center;gap:8px;padding:10px 12px;border-bottom:1px solid var(--dc-border)}",
    "header h2{font-size:16px;margin:0;flex:1;min-width:0}header button{flex:none;white-space:nowrap}",
    // a phone's header (after the rules above, to win): the title on a row of its own, the buttons
    // whole below it, right-aligned ("documentation" alone is wider than what they leave at 360 px)
    "@media (max-width:480px){header{flex-wrap:wrap;gap:6px;padding:8px 10px}header h2{flex-basis:100%}",
    "header .open-search{margin-left:auto}header button{padding:4px 10px}}",
    ".log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:12px}",
    ".msg{max-width:100%;overflow-wrap:anywhere}",
    ".user{align-self:flex-end;background:var(--dc-accent);color:var(--dc-accent-fg);padding:8px 12px;",
    "border-radius:12px 12px 2px 12px;white-space:pre-wrap}",
    ".assistant{background:var(--dc-bubble);padding:10px 12px;border-radius:12px 12px 12px 2px}",
    ".assistant h3{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--dc-muted);margin:0 0 4px}",
    ".guides{margin:0 0 8px;padding-left:18px}.guides a,.summary a{color:var(--dc-accent)}",
    ".guides .g-place{margin-left:6px;font-size:12px;color:var(--dc-muted)}",
    // each paragraph takes its direction from its own first letter: an Arabic or Hebrew answer
    // (or question) reads right to left, right-aligned, its final stop on the left
    ".summary p,.summary li,.user{unicode-bidi:plaintext;text-align:start}",
    ".summary p{margin:0 0 8px}.summary pre{background:var(--dc-bg);padding:8px;border-radius:6px;overflow-x:auto}",
    ".summary .table{overflow-x:auto;margin:0 0 8px}.summary table{border-collapse:collapse;font-size:.92em}",
    ".summary th,.summary td{border:1px solid var(--dc-border);padding:3px 6px;text-align:left;vertical-align:top}",
    // A cell breaks between words; a long one makes the table scroll in its box rather than cut a value.
    ".summary table td,.summary table th{overflow-wrap:normal;min-width:4em}.summary table code{white-space:nowrap}",
    ".summary ul,.summary ol{margin:0 0 8px;padding-left:22px}.summary li ul,.summary li ol{margin:2px 0 0}",
    ".summary code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}",
    ".notice{color:var(--dc-muted);font-size:14px}.error{color:var(--dc-error)}",
    "form{display:flex;gap:8px;padding:10px 12px;border-top:1px solid var(--dc-border)}",
    "textarea{flex:1;resize:none;font:inherit;min-height:40px;max-height:120px;padding:8px;border-radius:8px;",
    "border:1px solid var(--dc-border);background:var(--dc-bg);color:var(--dc-fg)}",
    ".send{background:var(--dc-accent);color:var(--dc-accent-fg);border:none}",
    ".confirm{display:flex;gap:8px;align-items:center;padding:8px 12px;border-bottom:1px solid var(--dc-border);font-size:14px}",
    "textarea::placeholder{color:var(--dc-muted);opacity:1;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}",
    ".status{color:var(--dc-muted);font-size:13px;font-style:italic;margin:0 0 6px}",
    ".feedback{display:flex;gap:6px;align-items:center;margin-top:6px;font-size:13px;color:var(--dc-muted)}",
    ".feedback button{padding:2px 8px;font-size:14px;line-height:1.4}.feedback button[aria-pressed=true]{border-color:var(--dc-accent);",
    "background:var(--dc-bubble)}.comment{display:flex;gap:6px;margin-top:6px;padding:0;border-top:none}.comment textarea{min-height:34px;font-size:14px}",
    ".handoff{margin:6px 0 0;font-size:14px}.handoff a{color:var(--dc-accent)}",
    ".intro{display:flex;flex-direction:column;gap:8px}.intro .greeting{background:var(--dc-bubble);padding:10px 12px;",
    "border-radius:12px 12px 12px 2px;margin:0;white-space:pre-line}.examples{display:flex;flex-wrap:wrap;gap:6px}",
    ".example{font-size:14px;text-align:left;border-color:var(--dc-accent);color:var(--dc-accent);border-radius:999px;padding:4px 12px}",
    ".search{position:fixed;inset:0;z-index:2147483002;background:rgba(0,0,0,.4);display:flex;justify-content:center;",
    "align-items:flex-start;padding:10vh 16px 16px}",
    ".search-box{width:min(640px,100%);max-height:min(560px,80vh);display:flex;flex-direction:column;background:var(--dc-bg);",
    "color:var(--dc-fg);border:1px solid var(--dc-border);border-radius:12px;box-shadow:0 10px 30px rgba(0,0,0,.3);overflow:hidden}",
    "@media (max-width:480px){.search{padding:8px}.search-box{max-height:calc(100vh - 16px)}}",
    ".search-bar{display:flex;gap:8px;align-items:center;padding:10px 12px;border-bottom:1px solid var(--dc-border)}",
    ".search-bar input{flex:1;min-width:0;font:inherit;font-size:16px;padding:8px;border-radius:8px;border:1px solid var(--dc-border);",
    "background:var(--dc-bg);color:var(--dc-fg)}.search-bar input:focus-visible{outline:2px solid var(--dc-accent);outline-offset:1px}",
    ".results{list-style:none;margin:0;padding:6px;overflow-y:auto;flex:1}",
    ".results li{border-radius:8px;padding:8px 10px;cursor:pointer;overflow-wrap:anywhere}",
    ".results li[aria-selected=true]{background:var(--dc-bubble);outline:2px solid var(--dc-accent);outline-offset:-2px}",
    ".results a{color:inherit;text-decoration:none;display:block}.results .r-title{font-weight:600;color:var(--dc-accent)}",
    ".results .r-path{font-size:12px;color:var(--dc-muted)}.results .r-snippet{font-size:14px;margin-top:2px}",
    ".results .r-place{font-size:12px;color:var(--dc-muted);margin-bottom:1px}",
    ".results mark{background:rgba(255,213,79,.55);color:inherit;border-radius:2px;padding:0 1px}",
    ".results .ask{color:var(--dc-accent);font-weight:600}",
    ".search-status{margin:0;padding:8px 16px;font-size:14px;color:var(--dc-muted);overflow-wrap:anywhere}.search-status.error{color:var(--dc-error)}",
    ".search-hint{margin:0;padding:6px 16px;font-size:12px;color:var(--dc-muted);border-top:1px solid var(--dc-border)}",
  ].join("");

  // Characters a browser's URL parser drops or reinterprets (tabs, newlines, controls, odd
  // spaces, backslashes): a URL holding any of them is refused rather than guessed at. A plain
  // space inside a path is percent-encoded by the parser, so only a leading or trailing one is.
  var URL_TRICKS = /[\u0000-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff\\]|^ | $/;

  // The href to draw for `url`, or null. The URL is resolved exactly as the browser will resolve
  // the link (against this page), and the result is what is drawn, absolute: a link either stays
  // on this site's origin, or is an http(s) URL spelled out as scheme://host (an off-site link that
  // reads as one). "/.//evil.example" is this site's "//evil.example" path, never the host
  // evil.example; "//evil.example", "https:evil.example" and any javascript:/data: are refused.
  function safeUrl(url) {
    var raw = String(url == null ? "" : url);
    if (!raw || URL_TRICKS.test(raw)) return null;
    var here, resolved;
    try {
      here = new URL(document.baseURI);
      resolved = new URL(raw, here.href);
    } catch (e) { return null; }
    if (resolved.protocol !== "http:" && resolved.protocol !== "https:") return null;
    if (!resolved.hostname || resolved.username || resolved.password) return null;
    if (resolved.origin === window.location.origin && /^[\/#?]/.test(raw) && !/^\/\//.test(raw)) return resolved.href;
    if (/^https?:\/\/[^\/]/i.test(raw)) return resolved.href;
    return null;
  }

  // A page title is the docs author's text: bidi overrides in it (U+202A-202E, U+2066-2069) would
  // draw "evil.exe" as "exe.live" in the guides and results. Titles are shown without them.
  function plainTitle(text) {
    return String(text || "").replace(/[\u202A-\u202E\u2066-\u2069]/g, "");
  }

  // A page's place in its site (tab › group: the labels its navigation shows it under), as sent
  // (a list of the site's labels): plain text, "" when there is none or it is not a list.
  function placeText(place) {
    if (!Array.isArray(place)) return "";
    return place.slice(0, 8).map(function (part) { return plainTitle(part).trim().slice(0, 120); })
      .filter(Boolean).join(" › ");
  }

  function link(href, text, title) {
    var a = document.createElement("a");
    a.setAttribute("href", href);
    a.textContent = text;
    if (title) a.setAttribute("title", title);
    return a;
  }

  // Markdown subset → DOM nodes. Text only ever becomes text nodes; the only attributes set are
  // hrefs that passed safeUrl and titles, through setAttribute. No HTML string is parsed.
  function renderMarkdown(markdown, sources) {
    var fragment = document.createDocumentFragment();
    var blocks = String(markdown).split(/```/);
    for (var i = 0; i < blocks.length; i++) {
      if (i % 2 === 1) {
        var pre = document.createElement("pre");
        var code = document.createElement("code");
        code.textContent = blocks[i].replace(/^[\w+-]*\n/, "").replace(/\n$/, "");
        pre.appendChild(code);
        fragment.appendChild(pre);
        continue;
      }
      var paragraphs = blocks[i].split(/\n{2,}/);
      for (var p = 0; p < paragraphs.length; p++) {
        var para = paragraphs[p].trim();
        if (!para) continue;
        var lines = para.split("\n");
        var table = tableOf(lines);
        if (table) {
          fragment.appendChild(renderTable(table, sources));
          if (table.citation) {
            var cited = document.createElement("p");
            inline(cited, table.citation, sources);
            fragment.appendChild(cited);
          }
          continue;
        }
        var isList = lines.every(function (l) { return LIST_ITEM.test(l); });
        if (isList) {
          fragment.appendChild(renderList(lines, sources));
        } else {
          // A line break inside a paragraph is a space (Markdown's soft break); a line that ends
          // in two spaces or a backslash is a hard break.
          var paragraph = document.createElement("p");
          lines.forEach(function (l, index) {
            if (index) paragraph.appendChild(/( {2,}|\\)$/.test(lines[index - 1]) ? document.createElement("br") : document.createTextNode(" "));
            inline(paragraph, l.replace(/^#+\s+/, "").replace(/^\s+/, "").replace(/( {2,}|\\)$/, ""), sources);
          });
          fragment.appendChild(paragraph);
        }
      }
    }
    return fragment;
  }

  // A line that opens a list item: its indent, its marker (a bullet, or a number for an ordered
  // list), its text.
  var LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;

  // List lines → <ul>/<ol>: a line indented more than the item before it opens a list inside that
  // item (the answers keep a nested item on its own line, indented as the page wrote it); an
  // ordered list starts at its first number.
  function renderList(lines, sources) {
    var stack = [];
    lines.forEach(function (l) {
      var m = l.match(LIST_ITEM), indent = m[1].replace(/\t/g, "    ").length, number = /\d/.test(m[2]);
      while (stack.length > 1 && indent < stack[stack.length - 1].indent) stack.pop();
      var top = stack[stack.length - 1];
      if (!top || (indent > top.indent && top.list.lastChild)) {
        var list = document.createElement(number ? "ol" : "ul");
        if (number && parseInt(m[2], 10) !== 1) list.setAttribute("start", String(parseInt(m[2], 10)));
        if (top) top.list.lastChild.appendChild(list);
        top = {indent: indent, list: list};
        stack.push(top);
      }
      var item = document.createElement("li");
      inline(item, m[3], sources);
      top.list.appendChild(item);
    });
    return stack[0].list;
  }

  // A GFM table as the answers quote it (the page reader writes `| a | b |`, then `|---|---|`, then
  // the rows; `\|` is a pipe inside a cell; a citation may follow the last row): its rows of cells,
  // or null when the lines are not one.
  function tableOf(lines) {
    if (lines.length < 2 || !/^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(lines[1])) return null;
    var last = lines[lines.length - 1].match(/^(.*\|)\s*((?:\[\d{1,2}\]\s*)+)$/);
    var body = lines.slice();
    if (last) body[body.length - 1] = last[1];
    if (!body.every(function (l) { return /^\s*\|.*\|\s*$/.test(l); })) return null;
    var rows = body.filter(function (l, index) { return index !== 1; }).map(cellsOf);
    return {rows: rows, citation: last ? last[2].trim() : ""};
  }

  function cellsOf(line) {
    var cells = [];
    var cell = "";
    var text = line.trim().slice(1, -1);
    for (var i = 0; i < text.length; i++) {
      if (text[i] === "\\" && text[i + 1] === "|") { cell += "|"; i++; }
      else if (text[i] === "|") { cells.push(cell.trim()); cell = ""; }
      else cell += text[i];
    }
    cells.push(cell.trim());
    return cells;
  }

  function renderTable(table, sources) {
    var wrap = document.createElement("div");
    wrap.className = "table"; // scrolls sideways on a narrow screen
    var element = document.createElement("table");
    table.rows.forEach(function (cells, index) {
      var row = document.createElement("tr");
      cells.forEach(function (text) {
        var cell = document.createElement(index ? "td" : "th");
        inline(cell, text, sources);
        row.appendChild(cell);
      });
      element.appendChild(row);
    });
    wrap.appendChild(element);
    return wrap;
  }

  // `code`, [label](url), **bold**, *emphasis*, _emphasis_, a backslash-escaped character and [n]
  // citations, appended to `parent`. A citation is only recognised in plain text, never inside a
  // link's URL or label. As in CommonMark, `*`/`_` open only before a non-space and close only after
  // one, and `_` only outside a word (snake_case_names stay as written); the page reader writes a
  // shown `*` as `\*` (app/corpus/js/src/reader.js), drawn as the `*` it is. No lookbehind: Safari
  // before 16.4 refuses the whole script on one.
  var INLINE = /(`[^`]+`)|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|\[(\d{1,2})\]|\\([!-\/:-@[-`{-~])|\*([^*\s](?:[^*]*[^*\s])?)\*|(^|[^A-Za-z0-9_\\])_([^_\s](?:[^_]*[^_\s])?)_(?![A-Za-z0-9_])/g;

  function inline(parent, text, sources) {
    var last = 0;
    var match;
    INLINE.lastIndex = 0;
    var pieces = [];
    while ((match = INLINE.exec(text)) !== null) pieces.push(match);
    pieces.forEach(function (m) {
      if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
      last = m.index + m[0].length;
      if (m[1]) {
        var code = document.createElement("code");
        code.textContent = m[1].slice(1, -1);
        parent.appendChild(code);
      } else if (m[2] !== undefined) {
        var href = safeUrl(m[3]);
        if (href) {
          var a = link(href, m[2]);
          a.setAttribute("target", "_blank");
          a.setAttribute("rel", "noopener noreferrer");
          parent.appendChild(a);
        } else {
          parent.appendChild(document.createTextNode(m[2]));
        }
      } else if (m[4] !== undefined) {
        var strong = document.createElement("strong");
        inline(strong, m[4], sources);
        parent.appendChild(strong);
      } else if (m[6] !== undefined) {
        parent.appendChild(document.createTextNode(m[6]));
      } else if (m[7] !== undefined || m[9] !== undefined) {
        if (m[8]) parent.appendChild(document.createTextNode(m[8]));
        var em = document.createElement("em");
        inline(em, m[7] !== undefined ? m[7] : m[9], sources);
        parent.appendChild(em);
      } else {
        var source = sources && sources[Number(m[5]) - 1];
        var target = source && safeUrl(source.url);
        parent.appendChild(target ? link(target, "[" + m[5] + "]", plainTitle(source.title)) : document.createTextNode(m[0]));
      }
    });
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  }

  function parseSseChunk(buffer, onPart) {
    var events = buffer.split("\n\n");
    var rest = events.pop();
    events.forEach(function (event) {
      event.split("\n").forEach(function (line) {
        if (line.indexOf("data: ") !== 0) return;
        var payload = line.slice(6);
        if (payload === "[DONE]") return;
        try { onPart(JSON.parse(payload)); } catch (e) { /* ignore a malformed line */ }
      });
    });
    return rest;
  }

  class DocsChat extends HTMLElement {
    constructor() {
      super();
      this.root = this.attachShadow({ mode: "open" });
      this.controller = null;
      this.loaded = false;
    }

    get endpoint() {
      return this.getAttribute("endpoint") || defaultEndpoint;
    }

    connectedCallback() {
      if (this.root.childElementCount) return;
      this.root.innerHTML =
        "<style>" + STYLE + "</style>" +
        '<button class="launcher" part="launcher" aria-haspopup="dialog">Ask the documentation</button>' +
        '<section class="panel" part="panel" role="dialog" aria-modal="true" aria-label="Ask the documentation" hidden>' +
        "<header><h2>Ask the documentation</h2>" +
        '<button class="open-search" type="button" aria-label="Search the docs" title="Search (Ctrl+K)">Search</button>' +
        '<button class="clear" type="button">Clear Chat</button>' +
        '<button class="close" type="button" aria-label="Close">✕</button></header>' +
        '<div class="confirm" hidden><span>Delete this conversation?</span>' +
        '<button class="confirm-yes" type="button">Delete</button><button class="confirm-no" type="button">Cancel</button></div>' +
        '<div class="log" aria-live="polite"></div>' +
        '<form><textarea rows="1" placeholder="Ask the docs…" aria-label="Your question" maxlength="2000"></textarea>' +
        '<button class="send" type="submit">Send</button><button class="stop" type="button" hidden>Stop</button></form>' +
        "</section>" +
        '<div class="search" hidden><section class="search-box" role="dialog" aria-modal="true" aria-label="Search the documentation">' +
        '<div class="search-bar"><input type="search" role="combobox" aria-expanded="false" aria-autocomplete="list" ' +
        'aria-controls="dc-results" aria-label="Search the docs" placeholder="Search the docs…" maxlength="200" autocomplete="off" spellcheck="false">' +
        '<button class="close-search" type="button" aria-label="Close search">Esc</button></div>' +
        '<p class="search-status" role="status" aria-live="polite"></p>' +
        '<ul class="results" id="dc-results" role="listbox" aria-label="Results"></ul>' +
        '<p class="search-hint">↑ ↓ to choose, Enter to open, Esc to close</p></section></div>';
      var $ = this.root.querySelector.bind(this.root);
      this.launcher = $(".launcher");
      this.panel = $(".panel");
      this.log = $(".log");
      this.input = $("textarea");
      this.sendButton = $(".send");
      this.stopButton = $(".stop");
      this.confirmBar = $(".confirm");
      this.heading = $("header h2");
      var title = script && script.dataset.title;
      if (title) this.setTitle(title);
      var self = this;
      this.launcher.addEventListener("click", function () { self.open(); });
      $(".close").addEventListener("click", function () { self.close(); });
      $(".clear").addEventListener("click", function () { self.confirmBar.hidden = false; $(".confirm-no").focus(); });
      $(".confirm-no").addEventListener("click", function () { self.confirmBar.hidden = true; self.input.focus(); });
      $(".confirm-yes").addEventListener("click", function () { self.clear(); });
      this.stopButton.addEventListener("click", function () { if (self.controller) self.controller.abort(); });
      $("form").addEventListener("submit", function (event) { event.preventDefault(); self.send(); });
      this.input.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && !event.shiftKey && !event.isComposing) { event.preventDefault(); self.send(); }
      });
      this.panel.addEventListener("keydown", function (event) { self.onPanelKey(event); });
      this.setUpSearch($);
    }

    get searchEndpoint() {
      return this.getAttribute("search-endpoint") || (script && script.dataset.searchEndpoint) ||
        this.endpoint.replace(/\/chat\/?$/, "") + "/search";
    }

    setUpSearch($) {
      var self = this;
      this.searchLayer = $(".search");
      this.searchInput = $(".search-bar input");
      this.results = $(".results");
      this.searchStatus = $(".search-status");
      this.searchSeq = 0;
      this.searchTimer = null;
      this.activeIndex = -1;
      $(".open-search").addEventListener("click", function () { self.openSearch(); });
      $(".close-search").addEventListener("click", function () { self.closeSearch(); });
      this.searchLayer.addEventListener("mousedown", function (event) {
        if (event.target === self.searchLayer) self.closeSearch();  // a click beside the box
      });
      this.searchInput.addEventListener("input", function () { self.scheduleSearch(); });
      this.searchInput.addEventListener("keydown", function (event) { self.onSearchKey(event); });
      this.searchLayer.addEventListener("keydown", function (event) {
        if (event.key === "Escape") { event.preventDefault(); self.closeSearch(); }
        if (event.key === "Tab") {  // focus stays in the dialog: the input and the close button
          event.preventDefault();
          (self.root.activeElement === self.searchInput ? $(".close-search") : self.searchInput).focus();
        }
      });
      this.onShortcut = function (event) {
        if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && (event.key === "k" || event.key === "K")) {
          event.preventDefault();
          if (self.searchLayer.hidden) self.openSearch(); else self.closeSearch();
        }
      };
      document.addEventListener("keydown", this.onShortcut);
    }

    disconnectedCallback() {
      if (this.onShortcut) document.removeEventListener("keydown", this.onShortcut);
    }

    openSearch(text) {
      this.searchReturn = this.root.activeElement || document.activeElement;
      this.searchLayer.hidden = false;
      if (typeof text === "string") this.searchInput.value = text;
      this.searchInput.focus();
      this.searchInput.select();
      if (this.searchInput.value) this.runSearch("keyword"); else this.showResults(null, "");
    }

    closeSearch() {
      this.searchLayer.hidden = true;
      this.searchSeq++;  // a reply still on its way is dropped
      if (this.searchController) this.searchController.abort();
      clearTimeout(this.searchTimer);
      var back = this.searchReturn;
      this.searchReturn = null;
      if (back && back.focus && back !== document.body) back.focus();
    }

    scheduleSearch() {
      var self = this;
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(function () { self.runSearch("keyword"); }, 120);
    }

    async runSearch(mode) {
      clearTimeout(this.searchTimer);
      var query = this.searchInput.value;
      var seq = ++this.searchSeq;
      if (this.searchController) this.searchController.abort();
      if ((query.match(/[\p{L}\p{N}]/gu) || []).length < 2) { this.showResults(null, query); return; }
      this.searchController = new AbortController();
      // sections=1: the view shows each page's best section only
      var url = this.searchEndpoint + "?q=" + encodeURIComponent(query) + "&limit=8&sections=1&mode=" + mode;
      try {
        var response = await fetch(url, { headers: { accept: "application/json" }, signal: this.searchController.signal });
        var data = {};
        try { data = await response.json(); } catch (e) { /* not JSON */ }
        if (seq !== this.searchSeq) return;
        if (!response.ok) {
          this.showError(typeof data.detail === "string" && data.detail ? data.detail : "Search failed (" + response.status + "). Please try again.", query);
          return;
        }
        this.showResults(Array.isArray(data.results) ? data.results : [], query);
      } catch (error) {
        if (seq !== this.searchSeq || (error && error.name === "AbortError")) return;
        this.showError("Search is unavailable right now. Please try again.", query);
      }
    }

    // A snippet drawn as text nodes, the matched words in <mark>; offsets count code points.
    snippetNode(snippet, highlights) {
      var node = document.createElement("div");
      node.className = "r-snippet";
      var chars = Array.from(String(snippet || ""));
      var last = 0;
      (Array.isArray(highlights) ? highlights : []).forEach(function (span) {
        var start = Number(span && span[0]), end = Number(span && span[1]);
        if (!(start >= last && end > start && end <= chars.length)) return;
        if (start > last) node.appendChild(document.createTextNode(chars.slice(last, start).join("")));
        var mark = document.createElement("mark");
        mark.textContent = chars.slice(start, end).join("");
        node.appendChild(mark);
        last = end;
      });
      if (last < chars.length) node.appendChild(document.createTextNode(chars.slice(last).join("")));
      return node;
    }

    showError(message, query) {
      this.showResults([], query);
      this.searchStatus.textContent = message;
      this.searchStatus.classList.add("error");
    }

    showResults(pages, query) {
      var self = this;
      this.results.replaceChildren();
      this.searchStatus.classList.remove("error");
      this.activeIndex = -1;
      this.searchInput.removeAttribute("aria-activedescendant");
      var count = 0;
      (pages || []).forEach(function (page) {
        (Array.isArray(page.sections) && page.sections.length ? page.sections.slice(0, 1) : [page]).forEach(function (section) {
          var href = safeUrl(section.url) || safeUrl(page.url);
          if (!href) return;  // nothing to open: not drawn
          var item = document.createElement("li");
          item.setAttribute("role", "option");
          item.id = "dc-r" + count++;
          var a = document.createElement("a");
          a.setAttribute("href", href);
          a.setAttribute("tabindex", "-1");
          var place = placeText(page.place);
          if (place) {  // where the site shows the page (tab › group), above its title
            var where = document.createElement("div");
            where.className = "r-place";
            where.textContent = place;
            a.appendChild(where);
          }
          var title = document.createElement("div");
          title.className = "r-title";
          title.textContent = plainTitle(page.title) || href;
          a.appendChild(title);
          var path = Array.isArray(section.path) ? section.path.slice(1).map(String).join(" › ") : "";
          if (path) {
            var crumb = document.createElement("div");
            crumb.className = "r-path";
            crumb.textContent = path;
            a.appendChild(crumb);
          }
          if (section.snippet) a.appendChild(self.snippetNode(section.snippet, section.highlights));
          item.appendChild(a);
          self.results.appendChild(item);
        });
      });
      var hasQuery = (query.match(/[\p{L}\p{N}]/gu) || []).length >= 2;
      if (hasQuery) {
        var ask = document.createElement("li");
        ask.setAttribute("role", "option");
        ask.id = "dc-r" + count;
        ask.className = "ask";
        ask.dataset.ask = "1";
        ask.textContent = "Ask the docs: “" + query.trim() + "”";
        this.results.appendChild(ask);
      }
      Array.prototype.forEach.call(this.results.children, function (item, index) {
        item.addEventListener("mousemove", function () { self.setActive(index); });
        item.addEventListener("click", function (event) { event.preventDefault(); self.activeIndex = index; self.choose(); });
      });
      this.searchInput.setAttribute("aria-expanded", String(this.results.children.length > 0));
      this.searchStatus.textContent = !hasQuery ? "Type to search the docs."
        : pages === null ? "" : count ? count + " result" + (count === 1 ? "" : "s") + "."
        : "No pages match “" + query.trim() + "”. Ask the docs instead?";
      if (hasQuery && count) this.setActive(0);
    }

    setActive(index) {
      var items = this.results.children;
      if (!items.length) return;
      index = (index + items.length) % items.length;
      Array.prototype.forEach.call(items, function (item, i) { item.setAttribute("aria-selected", String(i === index)); });
      this.activeIndex = index;
      this.searchInput.setAttribute("aria-activedescendant", items[index].id);
      items[index].scrollIntoView({ block: "nearest" });
    }

    onSearchKey(event) {
      if (event.isComposing) return;
      if (event.key === "ArrowDown") { event.preventDefault(); this.setActive(this.activeIndex + 1); }
      else if (event.key === "ArrowUp") { event.preventDefault(); this.setActive(this.activeIndex - 1); }
      else if (event.key === "Enter") { event.preventDefault(); this.choose(); }
    }

    // Enter: the chosen result is opened, "Ask the docs" asks the chat; with nothing chosen the
    // query is submitted (the vector leg joins: mode=hybrid).
    choose() {
      var item = this.results.children[this.activeIndex];
      if (!item) { this.runSearch("hybrid"); return; }
      if (item.dataset.ask) { this.askFromSearch(this.searchInput.value.trim()); return; }
      var a = item.querySelector("a[href]");
      if (a) window.location.assign(a.getAttribute("href"));
    }

    askFromSearch(question) {
      if (!question) return;
      this.closeSearch();
      this.open();
      this.input.value = question;
      this.send();
    }

    open() {
      this.panel.hidden = false;
      this.launcher.hidden = true;
      this.input.focus();
      if (!this.loaded) { this.loaded = true; this.restore(); }
    }

    close() {
      this.panel.hidden = true;
      this.launcher.hidden = false;
      this.launcher.focus();
    }

    onPanelKey(event) {
      if (event.key === "Escape") { event.preventDefault(); this.close(); return; }
      if (event.key !== "Tab") return;
      // Keep focus inside the panel while it is open.
      var focusable = Array.prototype.filter.call(
        this.panel.querySelectorAll("button, textarea, a[href]"),
        function (el) { return !el.hidden && !el.closest("[hidden]") && !el.disabled; }
      );
      if (!focusable.length) return;
      var first = focusable[0], last = focusable[focusable.length - 1];
      var active = this.root.activeElement;
      if (event.shiftKey && active === first) { event.preventDefault(); last.focus(); }
      else if (!event.shiftKey && active === last) { event.preventDefault(); first.focus(); }
    }

    request(method, body, signal) {
      var init = { method: method, credentials: "include", headers: { accept: "application/json, text/event-stream" }, signal: signal };
      if (body !== undefined) { init.headers["content-type"] = "application/json"; init.body = JSON.stringify(body); }
      return fetch(this.endpoint, init);
    }

    async restore() {
      var widget = {};
      try {
        var response = await this.request("GET");
        if (response.ok) {
          var data = await response.json();
          widget = data.widget || {};
          (data.messages || []).forEach(function (m) {
            if (m.role === "user") { this.addUser(m.content); return; }
            var view = this.addAssistant(m.sources || [], m.content, m.id);
            if (m.rating === "up" || m.rating === "down") view.rated(m.rating);
            if (m.handoff) view.handoff(m.handoff);  // shown after a refusal or a No: kept on reload
          }, this);
        }
      } catch (e) { /* history is a convenience: a failure leaves an empty chat */ }
      var given = script ? script.dataset : {};
      if (!given.title && typeof widget.title === "string" && widget.title) this.setTitle("Ask " + widget.title);
      this.intro = {
        greeting: given.greeting || (typeof widget.greeting === "string" ? widget.greeting : ""),
        examples: given.examples ? given.examples.split("|")
          : (Array.isArray(widget.examples) ? widget.examples : []),
      };
      this.showIntro();
    }

    // The panel's title (and its dialog's name): plain text.
    setTitle(text) {
      this.heading.textContent = String(text).slice(0, 80);
      this.panel.setAttribute("aria-label", this.heading.textContent);
    }

    // The empty chat's greeting and example questions (text only; a click asks the question).
    showIntro() {
      if (!this.intro || this.log.querySelector(".msg, .intro")) return;
      var examples = this.intro.examples.map(function (q) { return String(q).trim().slice(0, 200); })
        .filter(Boolean).slice(0, 6);
      if (!this.intro.greeting && !examples.length) return;
      var box = document.createElement("div");
      box.className = "intro";
      box.setAttribute("part", "intro");
      if (this.intro.greeting) {
        var greeting = document.createElement("p");
        greeting.className = "greeting";
        greeting.textContent = this.intro.greeting;
        box.appendChild(greeting);
      }
      if (examples.length) {
        var list = document.createElement("div");
        list.className = "examples";
        list.setAttribute("aria-label", "Example questions");
        var self = this;
        examples.forEach(function (question) {
          var button = document.createElement("button");
          button.type = "button";
          button.className = "example";
          button.setAttribute("part", "example");
          button.textContent = question;
          button.addEventListener("click", function () { self.input.value = question; self.send(); });
          list.appendChild(button);
        });
        box.appendChild(list);
      }
      this.log.appendChild(box);
    }

    addUser(text) {
      var node = document.createElement("div");
      node.className = "msg user";
      node.textContent = text;
      this.log.appendChild(node);
      this.scroll();
    }

    addAssistant(sources, text, id) {
      var node = document.createElement("div");
      node.className = "msg assistant";
      node.innerHTML = '<p class="status" role="status" hidden></p>' +
        '<div class="guides-block" hidden><h3>Relevant Guides</h3><ul class="guides"></ul></div>' +
        '<div class="summary-block" hidden><h3>Summary</h3><div class="summary"></div></div><p class="notice" hidden></p>' +
        '<div class="feedback" hidden><span>Helpful?</span>' +
        '<button class="up" type="button" aria-label="Helpful" aria-pressed="false">Yes</button>' +
        '<button class="down" type="button" aria-label="Not helpful" aria-pressed="false">No</button>' +
        '<span class="thanks" hidden>Thanks for telling us.</span></div>' +
        '<form class="comment" hidden><textarea rows="1" maxlength="1000" aria-label="What was missing? (optional)" ' +
        'placeholder="What was missing? (optional)"></textarea><button type="submit">Send</button></form>' +
        '<p class="handoff" hidden></p>';
      this.log.appendChild(node);
      var self = this;
      var view = {
        node: node, sources: [], text: "", id: null,
        addSource: function (source) {
          var href = safeUrl(source.url);
          view.sources.push(href ? source : null);  // keeps [n] pointing at the n-th guide
          if (!href) return;
          node.querySelector(".guides-block").hidden = false;
          var item = document.createElement("li");
          var link = document.createElement("a");
          link.setAttribute("href", href);
          link.textContent = plainTitle(source.title) || href;
          item.appendChild(link);
          var place = placeText(source.place);
          if (place) {  // tells apart the pages of one title ("Overview") by where the site shows them
            var where = document.createElement("span");
            where.className = "g-place";
            where.textContent = place;
            item.appendChild(where);
          }
          node.querySelector(".guides").appendChild(item);
        },
        status: function (data) {
          var p = node.querySelector(".status");
          var text = data && typeof data.text === "string" ? data.text : "";
          p.hidden = !text;
          p.textContent = text;
          self.scroll();
        },
        addText: function (delta) {
          node.querySelector(".status").hidden = true;
          view.text += delta;
          node.querySelector(".summary-block").hidden = false;
          node.querySelector(".summary").replaceChildren(renderMarkdown(view.text, view.sources));
        },
        notice: function (message, isError) {
          var p = node.querySelector(".notice");
          p.hidden = false;
          p.textContent = message;
          p.classList.toggle("error", !!isError);
          node.querySelector(".status").hidden = true;
          self.scroll();
        },
        // A way out (HANDOFF_URL): only an http(s) link, drawn as text + href like every other.
        handoff: function (handoff) {
          var href = handoff && safeUrl(handoff.url);
          if (!href) return;
          var a = link(href, String(handoff.text || href));
          a.setAttribute("target", "_blank");
          a.setAttribute("rel", "noopener noreferrer");
          node.querySelector(".handoff").replaceChildren(a);
          node.querySelector(".handoff").hidden = false;
          self.scroll();
        },
        finish: function (metadata) {
          node.querySelector(".status").hidden = true;
          if (metadata && metadata.would_answer === false) view.handoff(metadata.handoff);
          if (view.id && view.text) node.querySelector(".feedback").hidden = false;
          self.scroll();
        },
        rated: function (rating) {  // as stored: a reload shows the choice made
          node.querySelector(".up").setAttribute("aria-pressed", String(rating === "up"));
          node.querySelector(".down").setAttribute("aria-pressed", String(rating === "down"));
          node.querySelector(".thanks").hidden = false;
        },
        rate: async function (rating, comment) {
          var body = { messageId: view.id, rating: rating };
          if (comment) body.comment = comment;
          node.querySelector(".up").setAttribute("aria-pressed", String(rating === "up"));
          node.querySelector(".down").setAttribute("aria-pressed", String(rating === "down"));
          try {
            var response = await fetch(self.endpoint + "/feedback", {
              method: "POST", credentials: "include",
              headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body),
            });
            var data = {};
            try { data = await response.json(); } catch (e) { /* not JSON */ }
            if (!response.ok) { view.notice(data.detail || "Your feedback could not be saved (" + response.status + ").", true); return; }
            node.querySelector(".thanks").hidden = false;
            if (rating === "down") {
              node.querySelector(".comment").hidden = !!comment;
              view.handoff(data.handoff);
            } else {
              node.querySelector(".comment").hidden = true;
            }
          } catch (e) { view.notice("Your feedback could not be saved. Please try again.", true); }
        },
      };
      node.querySelector(".up").addEventListener("click", function () { view.rate("up"); });
      node.querySelector(".down").addEventListener("click", function () { view.rate("down"); });
      node.querySelector(".comment").addEventListener("submit", function (event) {
        event.preventDefault();
        var box = node.querySelector(".comment textarea");
        if (box.value.trim()) view.rate("down", box.value.trim());
      });
      view.id = id || null;
      sources.forEach(view.addSource);
      if (text) { view.addText(text); view.finish(null); }
      this.scroll();
      return view;
    }

    scroll() { this.log.scrollTop = this.log.scrollHeight; }

    setStreaming(streaming) {
      this.sendButton.hidden = streaming;
      this.stopButton.hidden = !streaming;
      this.input.disabled = streaming;
      if (!streaming) this.input.focus();
    }

    async send() {
      var question = this.input.value.trim();
      if (!question || this.controller) return;
      this.input.value = "";
      var intro = this.log.querySelector(".intro");
      if (intro) intro.remove();
      this.addUser(question);
      var view = this.addAssistant([], "");
      this.controller = new AbortController();
      this.setStreaming(true);
      try {
        var response = await this.request("POST", { message: question }, this.controller.signal);
        if (response.status === 429) {
          var retry = Number(response.headers.get("retry-after") || 0);
          var detail = "";
          try { detail = (await response.json()).detail || ""; } catch (e) { /* not JSON */ }
          var minutes = Math.max(1, Math.round(retry / 60));
          view.notice(detail || ("You have reached the question limit. Please come back in about " + minutes + " minute" + (minutes === 1 ? "" : "s") + "."), true);
          return;
        }
        if (!response.ok || !response.body) {
          var problem = "";
          try { problem = (await response.json()).detail || ""; } catch (e) { /* not JSON */ }
          view.notice(problem || "Something went wrong (" + response.status + "). Please try again.", true);
          return;
        }
        var reader = response.body.getReader();
        var decoder = new TextDecoder();
        var buffer = "";
        var self = this;
        for (;;) {
          var chunk = await reader.read();
          if (chunk.done) break;
          buffer = parseSseChunk(buffer + decoder.decode(chunk.value, { stream: true }), function (part) {
            if (part.type === "start") view.id = typeof part.messageId === "string" ? part.messageId : null;
            else if (part.type === "data-status") view.status(part.data);
            else if (part.type === "source-url") {
              var meta = part.providerMetadata && part.providerMetadata.docschat;
              view.addSource({ url: part.url, title: part.title, place: meta ? meta.place : null });
            }
            else if (part.type === "text-delta") view.addText(part.delta);
            else if (part.type === "finish") view.finish(part.messageMetadata);
            else if (part.type === "error") view.notice(part.errorText || "The answer could not be completed.", true);
            self.scroll();
          });
        }
      } catch (error) {
        if (error && error.name === "AbortError") view.notice("Stopped.");
        else view.notice("The connection was lost. Please try again.", true);
      } finally {
        this.controller = null;
        this.setStreaming(false);
      }
    }

    async clear() {
      this.confirmBar.hidden = true;
      if (this.controller) this.controller.abort();
      try { await this.request("DELETE"); } catch (e) { /* the local view is cleared regardless */ }
      this.log.innerHTML = "";
      this.showIntro();
      this.input.focus();
    }
  }

  customElements.define("docs-chat", DocsChat);

  function mount() {
    if (!document.querySelector("docs-chat")) {
      var element = document.createElement("docs-chat");
      if (script && script.dataset.endpoint) element.setAttribute("endpoint", script.dataset.endpoint);
      document.body.appendChild(element);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
  else mount();
})();
