/* docschat operator console: Sources (status, reindex with progress), Tester, Gaps and feedback.
 *
 * The admin token is typed once and kept in sessionStorage (this tab only); it travels only in the
 * Authorization header, never in a URL. Everything that comes from the API is put in the page as
 * text (createTextNode / textContent): no markup from data is ever parsed, so nothing in a
 * question, a doc or an error can execute.
 */
(function () {
  "use strict";

  var TOKEN_KEY = "docschat-admin-token";
  var POLL_MS = 700;
  var token = sessionStorage.getItem(TOKEN_KEY);
  var pollTimer = null;

  function $(id) { return document.getElementById(id); }

  /* el("p", {class: "muted"}, "text", childNode, ...): children are text or nodes, never HTML. */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      var value = attrs[key];
      if (value === null || value === undefined || value === false) return;
      if (key === "class") node.className = value;
      else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    });
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }

  /* Replace a container's children (text or nodes, arrays flattened, null skipped). */
  function fill(container) {
    container.replaceChildren();
    for (var i = 1; i < arguments.length; i++) append(container, arguments[i]);
    return container;
  }

  function facts(pairs) {
    var dl = el("dl", { class: "facts" });
    pairs.forEach(function (pair) {
      if (pair) append(dl, [el("dt", null, pair[0]), el("dd", null, pair[1])]);
    });
    return dl;
  }

  function when(iso) {
    if (!iso) return "never";
    var date = new Date(iso);
    return isNaN(date) ? String(iso) : date.toLocaleString();
  }

  function bytes(n) { return n === null || n === undefined ? "-" : (n / 1e6).toFixed(1) + " MB"; }
  function short(commit) { return commit ? String(commit).slice(0, 12) : "-"; }
  function score(n) { return typeof n === "number" ? n.toFixed(4) : "-"; }
  /* A value of the tester's explanation as text: numbers rounded, lists and objects spelled out
     (the cosine scale is a pair, the weights a map), never "[object Object]". */
  function plain(v) {
    if (typeof v === "number") return String(Math.round(v * 10000) / 10000);
    if (Array.isArray(v)) return "[" + v.map(plain).join(", ") + "]";
    if (v && typeof v === "object") {
      return "{" + Object.keys(v).map(function (k) { return k + ": " + plain(v[k]); }).join(", ") + "}";
    }
    return String(v);
  }
  function counts(map) {
    var keys = Object.keys(map || {});
    return keys.length ? keys.map(function (k) { return k + ": " + map[k]; }).join(", ") : "-";
  }

  /* --- API ---------------------------------------------------------------------------------- */

  function ApiError(status, detail, body) { this.status = status; this.message = detail; this.body = body; }

  function api(method, path, body) {
    var init = { method: method, cache: "no-store", headers: { authorization: "Bearer " + token } };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (response.status === 401) { signOut("The token was not accepted."); }
        if (!response.ok) throw new ApiError(response.status, data.detail || response.statusText, data);
        return data;
      });
    });
  }

  function showError(container, error) {
    fill(container, el("p", { class: "error", role: "alert" }, error.message || String(error)));
  }

  /* --- sign in ------------------------------------------------------------------------------ */

  function signedIn() {
    $("login").hidden = true;
    $("tabs").hidden = false;
    $("sign-out").hidden = false;
    select("sources");
  }

  function signOut(message) {
    token = null;
    sessionStorage.removeItem(TOKEN_KEY);
    clearTimeout(pollTimer);
    ["view-sources", "view-tester", "view-gaps", "view-insights"].forEach(function (id) { $(id).hidden = true; });
    $("tabs").hidden = true;
    $("sign-out").hidden = true;
    $("login").hidden = false;
    $("login-message").textContent = message || "";
    $("token").value = "";
    $("token").focus();
  }

  $("login-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var typed = $("token").value.trim();
    if (!typed) return;
    token = typed;
    $("login-message").textContent = "";
    api("GET", "/admin/api/status").then(function (status) {
      sessionStorage.setItem(TOKEN_KEY, token);
      $("token").value = "";
      signedIn();
      renderStatus(status);
    }, function (error) {
      if (error.status !== 401) {
        token = null;
        $("login-message").textContent = error.message;
      }
    });
  });

  $("sign-out").addEventListener("click", function () { signOut(""); });

  /* --- tabs (arrow keys move between them, as a tablist should) ----------------------------- */

  var VIEWS = ["sources", "tester", "gaps", "insights"];

  function select(name) {
    VIEWS.forEach(function (view) {
      var tab = $("tab-" + view);
      var active = view === name;
      tab.setAttribute("aria-selected", active ? "true" : "false");
      tab.tabIndex = active ? 0 : -1;
      $("view-" + view).hidden = !active;
    });
    if (name === "sources") loadStatus();
    if (name === "gaps") loadGaps();
    if (name === "tester") $("question").focus();
    if (name === "insights") loadInsights();
  }

  VIEWS.forEach(function (view, index) {
    var tab = $("tab-" + view);
    tab.addEventListener("click", function () { select(view); });
    tab.addEventListener("keydown", function (event) {
      var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      event.preventDefault();
      var next = VIEWS[(index + step + VIEWS.length) % VIEWS.length];
      select(next);
      $("tab-" + next).focus();
    });
  });

  /* --- Sources ------------------------------------------------------------------------------ */

  function loadStatus() {
    return api("GET", "/admin/api/status").then(renderStatus, function (error) { showError($("sources"), error); });
  }

  function renderStatus(status) {
    var cards = status.sources.map(function (source) {
      var last = source.last_sync;
      var result = last ? el("span", { class: last.result === "ok" ? "ok" : "error" }, last.result) : "never synced";
      return el("article", { class: "card", "data-source": source.name },
        el("div", { class: "row" },
          el("h3", { class: "grow" }, source.name),
          el("button", { type: "button", onclick: function () { reindex(source.name); } }, "Reindex " + source.name)),
        facts([
          ["pages", source.pages],
          ["chunks", source.chunks],
          ["embedding models", counts(source.chunks_by_model)],
          ["audiences", counts(source.chunks_by_audience)],
          source.repo ? ["from", source.repo + " · " + source.branch + " · " + (source.dir || "/")] : null,
          ["last sync", last ? [result, " · ", when(last.finished_at),
            last.seconds !== null && last.seconds !== undefined ? " · " + last.seconds + " s" : "",
            " · by " + last.trigger] : result],
          ["synced commit", [short(source.synced_commit), source.head_commit && !source.up_to_date
            ? el("span", { class: "warn" }, " (branch is at " + short(source.head_commit) + ")") : ""]],
          last && last.error ? ["error", el("span", { class: "error" }, last.error)] : null,
          last && last.report && last.report.skipped_pages && last.report.skipped_pages.length
            ? ["could not be read", el("span", { class: "warn" }, last.report.skipped_pages.join(", "))] : null,
          source.head_error ? ["repository", el("span", { class: "warn" }, source.head_error)] : null,
        ]));
    });
    fill($("sources"), cards.length ? cards : el("p", null, "No source is configured."));
    var scheduler = status.scheduler;
    fill($("overview"), 
      el("h3", null, "Service"),
      facts([
        ["embeddings", (status.provider.embedding_model || "none (keyword-only)") + " · " + status.provider.embedding_provider],
        ["answers", status.provider.answerer + (status.provider.chat_model ? " · " + status.provider.chat_model : "")],
        ["scheduler", scheduler.enabled
          ? "every " + scheduler.interval_seconds + " s · last check " + when(scheduler.last_check_at)
            + " · next " + (scheduler.next_check_at ? when(scheduler.next_check_at) : "-")
          : "off (SYNC_INTERVAL_SECONDS unset)"],
        ["gaps", status.gaps],
        ["database", bytes(status.database.size_bytes) + " (index " + bytes(status.database.index_bytes) + ")"],
        status.replica ? ["read replica", replica(status.replica)] : null,
      ].concat(status.interrupted_job ? [["interrupted", "sync job " + status.interrupted_job.id + " ("
        + status.interrupted_job.trigger + ") stopped before it finished"]] : [])));
    if (status.running_job && !pollTimer) follow(status.running_job.id);
  }

  /* The read replica (DATABASE_READ_URL) in words: none, unreadable, not a replica, caught up, or
     how far behind (WAL bytes to replay, and the age of the last transaction it replayed). */
  function replica(r) {
    if (!r.configured) return el("span", { class: "muted" }, "none (DATABASE_READ_URL unset): retrieval reads the primary");
    if (r.error) return el("span", { class: "error" }, r.error);
    if (!r.replica) {
      return el("span", { class: "warn" }, "DATABASE_READ_URL is not a replica (its server is not in recovery)");
    }
    if (!r.lag_bytes) return [el("span", { class: "ok" }, "caught up"), " · retrieval reads the replica"];
    var seconds = Number(r.lag_seconds) || 0;
    return el("span", { class: "warn" }, "behind: " + Number(r.lag_bytes).toLocaleString("en") + " bytes of WAL to replay"
      + " · last replayed transaction " + (seconds < 10 ? seconds.toFixed(1) : Math.round(seconds).toLocaleString("en"))
      + " s ago · visitors get the index as it was");
  }

  function reindex(source) {
    var body = source ? { source: source } : {};
    setReindexing(true);
    api("POST", "/admin/api/reindex", body).then(function (data) {
      renderJob(data.job);
      follow(data.job.id);
    }, function (error) {
      if (error.status === 409 && error.body.job) {
        renderJob(error.body.job, "A sync was already running; showing it.");
        follow(error.body.job.id);
      } else {
        setReindexing(false);
        var box = $("job");
        box.hidden = false;
        showError(box, error);
      }
    });
  }

  function setReindexing(busy) {
    document.querySelectorAll("#view-sources button").forEach(function (button) {
      if (button.id !== "refresh") button.disabled = busy;
    });
  }

  function follow(jobId) {
    clearTimeout(pollTimer);
    setReindexing(true);
    pollTimer = setTimeout(function poll() {
      api("GET", "/admin/api/reindex/" + encodeURIComponent(jobId)).then(function (data) {
        renderJob(data.job);
        if (data.job.state === "running") {
          pollTimer = setTimeout(poll, POLL_MS);
        } else {
          pollTimer = null;
          setReindexing(false);
          loadStatus();
        }
      }, function (error) {
        pollTimer = null;
        setReindexing(false);
        showError($("job"), error);
      });
    }, POLL_MS);
  }

  function renderJob(job, note) {
    var box = $("job");
    box.hidden = false;
    var stateClass = job.state === "ok" ? "ok" : job.state === "running" ? "" : "error";
    fill(box, 
      el("h3", null, "Sync job ", el("span", { class: stateClass, "data-job-state": job.state }, job.state)),
      note ? el("p", { class: "muted" }, note) : null,
      el("p", { class: "muted" }, "job " + job.id + " · started by " + job.trigger),
      job.state === "running" && job.progress && job.progress.total
        ? el("div", null, el("progress", { max: job.progress.total, value: job.progress.done,
            "aria-label": "embedding" }), job.progress.done + " / " + job.progress.total + " embedded")
        : null,
      job.sources.map(function (item) {
        var report = item.report || {};
        return el("div", { class: "source-progress" },
          el("strong", null, item.source), " ", el("span", { class: "badge" }, item.state),
          item.commit ? el("span", { class: "muted" }, " at " + short(item.commit)) : null,
          item.state === "ok" ? el("p", { class: "muted" }, report.pages + " pages, " + report.chunks + " chunks: "
            + report.new + " new, " + report.changed + " changed, " + report.deleted + " deleted; "
            + report.embedded + " embedded in " + report.seconds + " s") : null,
          item.error ? el("p", { class: "error" }, item.error) : null);
      }));
  }

  $("refresh").addEventListener("click", loadStatus);
  $("reindex-all").addEventListener("click", function () { reindex(null); });

  /* --- Tester ------------------------------------------------------------------------------- */

  // A feedback row's question is tested in its conversation (the answer's message_id): a
  // follow-up is read with the questions before it, as the chat read it. Editing the question
  // asks it alone.
  var testerConversation = null;

  $("tester-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var question = $("question").value;
    var audience = $("audience").value.trim();
    var query = "q=" + encodeURIComponent(question) + (audience ? "&audience=" + encodeURIComponent(audience) : "");
    if (testerConversation && testerConversation.question === question) {
      query += "&message_id=" + encodeURIComponent(testerConversation.messageId);
    } else {
      testerConversation = null;
    }
    var out = $("tester-result");
    fill(out, el("p", { class: "muted" }, "Searching…"));
    api("GET", "/admin/api/test?" + query).then(function (result) { renderTest(result); },
      function (error) { showError(out, error); });
  });

  function table(headers, rows) {
    return el("div", { class: "scroll" }, el("table", null,
      el("thead", null, el("tr", null, headers.map(function (h) { return el("th", { scope: "col" }, h); }))),
      el("tbody", null, rows.map(function (cells) {
        return el("tr", null, cells.map(function (c) { return el("td", null, c); }));
      }))));
  }

  function renderTest(result) {
    var explain = result.explain || {};
    var verdict = result.would_answer === undefined ? null
      : el("span", { class: result.would_answer ? "ok" : "error" }, result.would_answer ? "would answer" : "would refuse");
    var kept = result.pages || [];
    var candidates = explain.pages || [];
    var fused = explain.fused || [];
    var errors = explain.errors || {};
    fill($("tester-result"), 
      el("div", { class: "card" },
        el("h3", null, "Results for: ", el("q", { class: "asked" }, result.question)),
        facts([
          ["verdict", verdict || "-"],
          ["confidence", result.confidence === undefined ? "-" : score(result.confidence)],
          ["floor", result.floor === undefined ? "-" : score(result.floor)],
          result.history && result.history.length
            ? ["asked after", el("span", { class: "history" }, result.history.map(function (q) { return "“" + q + "”"; }).join(" → "))]
            : null,
          ["audiences", result.audiences ? result.audiences.join(", ") : "all"],
          ["mode", result.mode + (result.degraded ? " (degraded: " + result.degraded + ")" : "")],
          Object.keys(errors).length ? ["leg errors", counts(errors)] : null,
          explain.confidence ? ["how confidence was made", Object.keys(explain.confidence).map(function (k) {
            return k + ": " + plain(explain.confidence[k]);
          }).join(" · ")] : null,
        ])),
      el("h3", null, result.would_answer === false
        ? "Passages found (" + kept.length + "); the chat would refuse, so none reaches the model"
        : "Passages the model would get (" + kept.length + ")"),
      kept.length ? kept.map(function (page, i) {
        return el("article", { class: "card passage" },
          el("h3", null, "[" + (i + 1) + "] " + page.title + (page.heading ? " › " + page.heading : "")),
          el("p", { class: "muted" }, page.href + " · score " + score(page.score)
            + (page.weight !== undefined ? " · weight " + page.weight : "")),
          el("pre", null, page.excerpt));
      }) : el("p", { class: "muted" }, "No passage would be given to the model."),
      el("h3", null, "Pages kept and dropped"),
      table(["page", "score", "decision"], candidates.map(function (c) {
        return [c.title + " (" + c.page + ")", score(c.score),
          el("span", { class: "badge " + (c.kept ? "kept" : "dropped") }, c.reason)];
      })),
      el("h3", null, "Fused ranking (reciprocal rank fusion)"),
      table(["chunk", "fused score", "keyword rank", "vector rank"], fused.slice(0, 30).map(function (f) {
        return [f.id, score(f.score), f.ranks.keyword || "-", f.ranks.vector || "-"];
      })),
      result.model_input && result.model_input.prompt
        ? el("details", null, el("summary", null, "The excerpts exactly as sent to the model"),
            el("pre", null, result.model_input.prompt))
        : null);
  }

  /* --- Gaps --------------------------------------------------------------------------------- */

  function loadGaps() {
    api("GET", "/admin/api/gaps").then(renderGaps, function (error) { showError($("gaps"), error); });
    api("GET", "/admin/api/feedback").then(renderFeedback, function (error) { showError($("feedback"), error); });
  }

  /* The question in the Tester, searched in its conversation: one click from a No. */
  function testQuestion(question, messageId) {
    select("tester");
    testerConversation = messageId === undefined ? null : { question: question, messageId: messageId };
    $("question").value = question;
    $("audience").value = "";
    $("tester-form").requestSubmit();
  }

  // The answer as the visitor read it (answer_text: no Markdown), cut at a word after 240 characters.
  function answerText(item) {
    var text = String(item.answer_text || item.answer || "");
    if (text.length <= 240) return text;
    var cut = text.lastIndexOf(" ", 240);
    return text.slice(0, cut > 160 ? cut : 240) + "…";
  }

  function renderFeedback(data) {
    var items = data.feedback || [];
    var summary = data.summary || {};
    if (!items.length) {
      fill($("feedback"), el("p", null, "No feedback yet."));
      return;
    }
    fill($("feedback"),
      el("p", { class: "feedback-summary" }, "helpful " + (summary.up || 0) + " · not helpful " + (summary.down || 0)),
      el("ol", { class: "gap-list" }, items.map(function (item) {
        var down = item.rating === "down";
        return el("li", { class: "card feedback-item", "data-rating": item.rating },
          el("p", null, el("span", { class: "badge " + (down ? "dropped" : "kept") }, down ? "not helpful" : "helpful"),
            " ", el("strong", { class: "feedback-question" }, item.question || "(question not kept)"), " ",
            item.question ? el("button", { type: "button", class: "test-question",
              onclick: function () { testQuestion(item.question, item.message_id); } }, "Test") : null),
          facts([
            item.comment ? ["comment", el("q", null, item.comment)] : null,
            ["answer", answerText(item)],
            item.pages && item.pages.length ? ["guides", item.pages.join(", ")] : null,
            ["when", when(item.updated_at)],
          ]));
      })));
  }

  // The gap outcomes recorded by the chat (app/chat/gaps.py), in words an operator reads; the raw
  // value follows in brackets, as `docschat gaps --outcome` takes it.
  var OUTCOMES = {
    refused_indomain: "refused: on topic, but the docs do not say",
    partly: "answered in part: the docs cover only some of it",
    refused_offtopic: "refused: far from every page",
    answered: "answered with low confidence",
  };

  function renderGaps(data) {
    var groups = (data.gaps || []).slice().sort(function (a, b) {
      return String(b.last_seen || "").localeCompare(String(a.last_seen || ""));
    });
    if (!groups.length) {
      fill($("gaps"), el("p", null, "No gaps recorded."));
      return;
    }
    fill($("gaps"), el("ol", { class: "gap-list" }, groups.map(function (gap) {
      return el("li", { class: "card gap" },
        el("p", null, el("strong", { class: "gap-question" }, gap.question), " ",
          el("span", { class: "badge", title: "times asked" }, "× " + gap.count)),
        facts([
          ["last asked", when(gap.last_seen)],
          ["first asked", when(gap.first_seen)],
          ["outcome", gap.outcome ? (OUTCOMES[gap.outcome] || gap.outcome) + " (" + gap.outcome + ")"
            : gap.refused ? "refused" : "answered with low confidence"],
          gap.best_page ? ["nearest page", gap.best_page] : null,
          gap.confidence !== undefined && gap.confidence !== null ? ["confidence", score(gap.confidence)] : null,
          gap.variants && gap.variants.length > 1 ? ["asked as", gap.variants.join(" · ")] : null,
        ]));
    })));
  }

  $("gaps-refresh").addEventListener("click", loadGaps);
  $("gaps-clear").addEventListener("click", function () {
    if (!window.confirm("Forget every recorded gap?")) return;
    api("DELETE", "/admin/api/gaps").then(loadGaps, function (error) { showError($("gaps"), error); });
  });


  /* --- Insights: daily series drawn with uPlot (vendored, design/insights.md), then three tables --- */

  var insightsDays = 30;
  var insightsData = null;
  var charts = [];

  function cssVar(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

  function loadInsights() {
    api("GET", "/admin/api/insights?since=" + insightsDays + "d").then(renderInsights,
      function (error) { showError($("insights-range"), error); });
  }

  function windowButtons() { return Array.prototype.slice.call(document.querySelectorAll("#insights-window [role=radio]")); }

  function chooseWindow(button, focus) {
    windowButtons().forEach(function (b) {
      var on = b === button;
      b.setAttribute("aria-checked", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
    });
    if (focus) button.focus();
    insightsDays = Number(button.getAttribute("data-days"));
    loadInsights();
  }

  windowButtons().forEach(function (button, index, all) {
    button.addEventListener("click", function () { chooseWindow(button, false); });
    button.addEventListener("keydown", function (event) {
      var step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1
        : event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 0;
      if (!step) return;
      event.preventDefault();
      chooseWindow(all[(index + step + all.length) % all.length], true);
    });
  });

  function rate(helpful, notHelpful) {
    return helpful + notHelpful ? Math.round(1000 * helpful / (helpful + notHelpful)) / 10 : null;
  }

  function percent(value) { return value === null || value === undefined ? "-" : value + "%"; }

  function stat(label, value) { return el("div", null, el("strong", null, String(value)), label); }

  function numTable(headers, rows, numeric) {
    return el("table", null,
      el("thead", null, el("tr", null, headers.map(function (h, i) {
        return el("th", { scope: "col", class: numeric.indexOf(i) >= 0 ? "num" : null }, h);
      }))),
      el("tbody", null, rows.map(function (cells) {
        return el("tr", null, cells.map(function (c, i) { return el("td", { class: numeric.indexOf(i) >= 0 ? "num" : null }, c); }));
      })));
  }

  function renderInsights(data) {
    insightsData = data;
    var t = data.totals;
    $("insights-range").textContent = "From " + data.from + " to " + data.to + " (UTC days). Questions are kept " +
      data.retention.chat_days + " days, queries that found nothing " + data.retention.gap_days + " days.";
    fill($("insights-stats"), [
      stat("questions", t.questions), stat("answered", t.answered), stat("partly", t.partly),
      stat("refused", t.refused), stat("helpful", t.helpful_rate === null ? "-" : Math.round(t.helpful_rate * 100) + "%"),
      stat("searches", t.doors.search), stat("MCP requests", t.doors.mcp), stat("llms.txt requests", t.doors.llms_txt),
    ]);
    var doors = {};
    data.doors.forEach(function (d) { doors[d.date] = d; });
    fill($("insights-days"), numTable(
      ["date", "questions", "answered", "partly", "refused", "👍", "👎", "helpful", "chat", "search", "MCP", "llms.txt"],
      data.days.slice().reverse().map(function (d) {
        var door = doors[d.date] || {};
        return [d.date, String(d.questions), String(d.answered), String(d.partly), String(d.refused), String(d.helpful),
          String(d.not_helpful), percent(rate(d.helpful, d.not_helpful)), String(door.chat || 0), String(door.search || 0),
          String(door.mcp || 0), String(door.llms_txt || 0)];
      }), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]));
    fill($("insights-questions"), data.top_questions.length ? numTable(
      ["question", "asked", "answered", "partly", "refused", "wordings", "last asked"],
      data.top_questions.map(function (q) {
        return [q.question, String(q.count), String(q.answered), String(q.partly), String(q.refused), String(q.wordings),
          q.last_seen];
      }), [1, 2, 3, 4, 5]) : el("p", null, "No questions in this window."));
    fill($("insights-pages"), data.top_pages.length ? numTable(["page", "cited"], data.top_pages.map(function (p) {
      return [el("span", null, el("strong", null, p.title), el("br"), el("span", { class: "muted" }, p.url)), String(p.citations)];
    }), [1]) : el("p", null, "No page cited in this window."));
    fill($("insights-misses"), data.search_no_results.length ? numTable(["query", "where", "times", "last"],
      data.search_no_results.map(function (m) {
        return [m.query, m.door === "search" ? "search box" : "chat", String(m.count), m.last_seen];
      }), [2]) : el("p", null, "Every query found something."));
    drawCharts();
  }

  function drawCharts() {
    charts.forEach(function (chart) { chart.destroy(); });
    charts = [];
    var data = insightsData;
    if (!data || typeof uPlot === "undefined" || $("view-insights").hidden) return;
    var x = data.days.map(function (d) { return Date.parse(d.date + "T00:00:00Z") / 1000; });
    var fg = cssVar("--fg"), muted = cssVar("--muted"), grid = cssVar("--border");
    var colors = { answered: cssVar("--ok"), partly: cssVar("--warn"), refused: cssVar("--error"), accent: cssVar("--accent") };
    function axes(valueFormat) {
      return [
        { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } },
        { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, size: 52,
          values: valueFormat || null },
      ];
    }
    function options(container, series, yScale, yAxes) {
      var width = Math.max(240, container.clientWidth);
      return {
        width: width, height: width < 480 ? 180 : 220,
        tzDate: function (ts) { return uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"); },
        cursor: { points: { show: false } },
        legend: { live: true },
        // Half a day of room on each side: the first and last bars are whole.
        scales: Object.assign({ x: { time: true, range: function (u, min, max) { return [min - 43200, max + 43200]; } } },
          yScale),
        series: [{ label: "day", value: "{YYYY}-{MM}-{DD}" }].concat(series),
        axes: yAxes || axes(),
      };
    }
    var bars = uPlot.paths.bars({ size: [0.7, 40] });
    var raw = { answered: data.days.map(function (d) { return d.answered; }),
      partly: data.days.map(function (d) { return d.partly; }), refused: data.days.map(function (d) { return d.refused; }) };
    function bar(label, color, key) {
      return { label: label, fill: color, stroke: color, width: 0, paths: bars, points: { show: false },
        value: function (u, v, si, i) { return i === null || i === undefined ? "-" : String(raw[key][i]); } };
    }
    // Stacked by drawing the running sums, tallest first: refused at the bottom, then partly, answered on top.
    var stacked = [
      data.days.map(function (d) { return d.answered + d.partly + d.refused; }),
      data.days.map(function (d) { return d.partly + d.refused; }),
      data.days.map(function (d) { return d.refused; }),
    ];
    var outcomes = $("chart-outcomes");
    fill(outcomes);
    charts.push(new uPlot(options(outcomes, [bar("answered", colors.answered, "answered"),
      bar("partly", colors.partly, "partly"), bar("refused", colors.refused, "refused")],
      { y: { range: function (u, min, max) { return [0, Math.max(4, Math.ceil(max * 1.1))]; } } }),
      [x].concat(stacked), outcomes));
    outcomes.setAttribute("aria-label", data.totals.questions + " questions in " + data.days.length + " days: " +
      data.totals.answered + " answered, " + data.totals.partly + " partly, " + data.totals.refused + " refused");

    var helpful = $("chart-helpful");
    fill(helpful);
    charts.push(new uPlot(options(helpful, [{ label: "helpful", stroke: colors.accent, width: 2, spanGaps: true,
      points: { show: true, size: 6, fill: colors.accent }, value: function (u, v) { return percent(v); } }],
      { y: { range: [0, 100] } }, axes(function (u, ticks) { return ticks.map(function (t) { return t + "%"; }); })),
      [x, data.days.map(function (d) { return rate(d.helpful, d.not_helpful); })], helpful));
    helpful.setAttribute("aria-label", "helpful rate over the window: " +
      (data.totals.helpful_rate === null ? "no ratings" : Math.round(data.totals.helpful_rate * 100) + "%"));

    var doorChart = $("chart-doors");
    fill(doorChart);
    var names = [["chat", "widget chat", colors.accent], ["search", "search box", colors.answered],
      ["mcp", "MCP", colors.partly], ["llms_txt", "llms.txt", fg]];
    charts.push(new uPlot(options(doorChart, names.map(function (n) {
      return { label: n[1], stroke: n[2], width: 2, points: { show: data.days.length <= 31, size: 5, fill: n[2] } };
    }), { y: { range: function (u, min, max) { return [0, Math.max(4, Math.ceil(max * 1.1))]; } } }),
    [x].concat(names.map(function (n) { return data.doors.map(function (d) { return d[n[0]] || 0; }); })), doorChart));
    doorChart.setAttribute("aria-label", "requests per door: " + names.map(function (n) {
      return n[1] + " " + data.totals.doors[n[0]]; }).join(", "));
  }

  var resizeTimer = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(drawCharts, 150);
  });
  if (window.matchMedia) {
    var scheme = window.matchMedia("(prefers-color-scheme: dark)");
    if (scheme.addEventListener) scheme.addEventListener("change", drawCharts);
  }

  if (token) signedIn();
  else $("token").focus();
})();
