// A VitePress page's `<style scoped>` as Vue compiles it: @vue/compiler-sfc's scoped plugin
// (pluginScoped) rewrites each selector so that it matches only the elements of the page's own
// template, which Vue renders with the page's scope attribute (`data-v-<hash>`): `.a .b` becomes
// `.a .b[data-v-…]`, `.a :deep(.b)` `.a[data-v-…] .b`, `:global(.b)` `.b`, `:slotted(.b)`
// `.b[data-v-…-s]` (content a `<slot>` of the page renders: a page has none). Not read as Vue, a
// scoped rule hid whatever it named, v-html's content too (which carries no scope attribute), and a
// `:deep()` (a pseudo-class the reader does not know) the whole page. rewriteSelector below is the
// compiler's own (compiler-sfc 3.5.47, dist/compiler-sfc.cjs.js, MIT, Evan You), on the selector
// parser it bundles (postcss-selector-parser 7.1.7), with postcss's rule replaced by the little of it
// the function reads (`nodes`' types, `parent`, `__deep`). What the build hides of each form is in
// the `probe/scoped` page of tests/data/site-nav/vitepress (scripts/record_vitepress_site.py).
import selectorParser from 'postcss-selector-parser'

// The scope attribute the reader gives the page's elements (vueScoped), and the page's wrapper
// (VitePress renders a page as `<template><div>…</div></template>`: the wrapper is scoped too).
export const SCOPE = 'data-v-docschat'
export const SCOPE_PROPERTY = 'dataVDocschat'

const warn = () => {}

// A rule as the plugin sees it: its selector, its parent rule (null at the top), whether it holds
// rules (postcss's `rule.nodes`: Vue then scopes the declarations it holds apart, as `&`).
export function scopedRule(selector, parent, holdsRules) {
  return {selector, parent, nodes: holdsRules ? [{type: 'rule'}] : [], type: 'rule'}
}

// processRule: the rule's selector rewritten (its `__deep` set when it says `:deep()`).
export function scopedSelector(rule) {
  let deep = false
  for (let parent = rule.parent; parent; parent = parent.parent) {
    if (parent.__deep) {
      deep = true
      break
    }
  }
  return selectorParser((selectorRoot) => {
    selectorRoot.each((selector) => {
      rewriteSelector(SCOPE, rule, selector, selectorRoot, deep)
    })
  }).processSync(rule.selector)
}

// A `<style module>` as Vite compiles it (postcss-modules, local by default): each class and id
// outside `:global` gets a name of its own (`.m1` is `._m1_x7f`), which no element of the page has
// (a `:class="$style.m1"` binding the reader cannot evaluate hides its element anyway); `:global(…)`
// and what follows a bare `:global` keep their names, `:local` switches back. Recorded: the
// `probe/module` page.
export function moduleSelector(text) {
  return selectorParser((root) => root.each((selector) => localized(selector, false))).processSync(text)
}

function localized(selector, global) {
  let local = !global
  for (const node of [...selector.nodes]) {
    if (node.type === 'pseudo' && (node.value === ':global' || node.value === ':local')) {
      if (node.nodes.length) {
        for (const inner of node.nodes) localized(inner, node.value === ':global')
        node.replaceWith(...node.nodes[0].nodes)
      } else {
        local = node.value === ':local'
        const next = node.next()
        if (next && next.type === 'combinator' && !next.value.trim() && !node.prev()) next.remove()
        node.remove()
      }
    } else if ((node.type === 'class' || node.type === 'id') && local) {
      node.value = `docschat-module-${node.value}`
    } else if (node.type === 'pseudo' && node.nodes.length) {
      for (const inner of node.nodes) localized(inner, !local)
    }
  }
}

/* eslint-disable */
// ---- @vue/compiler-sfc 3.5.47, as written (`extractAndWrapNodes` is the caller's: hidingRules) ----
function rewriteSelector(id, rule, selector, selectorRoot, deep, slotted = false) {
  let node = null;
  let shouldInject = !deep;
  let hasNestedDeep = false;
  let splitForNestedDeep = false;
  selector.each((n) => {
    if (n.type === "combinator" && (n.value === ">>>" || n.value === "/deep/")) {
      n.value = " ";
      n.spaces.before = n.spaces.after = "";
      warn(
        `the >>> and /deep/ combinators have been deprecated. Use :deep() instead.`
      );
      return false;
    }
    if (n.type === "pseudo") {
      const { value } = n;
      if (isDeepContainerPseudo(n)) {
        const hasDeepSelectors = n.nodes.some(
          (selector2) => selector2.some(isDeepSelector)
        );
        if (hasDeepSelectors) {
          const hasScopeAnchor = !!node;
          const hasMixedSelectors = n.nodes.some(
            (selector2) => !selector2.some(isDeepSelector)
          );
          const hasTrailingNodes = selector.index(n) < selector.length - 1;
          if (canSplitDeepContainerPseudo(n) && !deep && !hasScopeAnchor && hasMixedSelectors && hasTrailingNodes) {
            splitSelectorForNestedDeep(
              id,
              rule,
              selector,
              selectorRoot,
              n,
              deep,
              slotted
            );
            splitForNestedDeep = true;
            return false;
          }
          if (value === ":not" && !deep && !hasScopeAnchor && hasMixedSelectors && hasTrailingNodes) {
            return;
          }
          n.nodes.forEach(
            (selector2) => rewriteSelector(
              id,
              rule,
              selector2,
              selectorRoot,
              deep || hasScopeAnchor,
              slotted
            )
          );
          if (!hasScopeAnchor) {
            node = n;
            shouldInject = false;
          }
          hasNestedDeep = true;
        }
      }
      if (value === ":deep" || value === "::v-deep") {
        rule.__deep = true;
        if (n.nodes.length) {
          let last = n;
          n.nodes[0].each((ss) => {
            selector.insertAfter(last, ss);
            last = ss;
          });
          const prev = selector.at(selector.index(n) - 1);
          if (!prev || !isSpaceCombinator(prev)) {
            selector.insertAfter(
              n,
              selectorParser.combinator({
                value: " "
              })
            );
          }
          selector.removeChild(n);
        } else {
          warn(
            `${value} usage as a combinator has been deprecated. Use :deep(<inner-selector>) instead of ${value} <inner-selector>.`
          );
          const prev = selector.at(selector.index(n) - 1);
          if (prev && isSpaceCombinator(prev)) {
            selector.removeChild(prev);
          }
          selector.removeChild(n);
        }
        return false;
      }
      if (value === ":slotted" || value === "::v-slotted") {
        rewriteSelector(
          id,
          rule,
          n.nodes[0],
          selectorRoot,
          deep,
          true
        );
        let last = n;
        n.nodes[0].each((ss) => {
          selector.insertAfter(last, ss);
          last = ss;
        });
        selector.removeChild(n);
        shouldInject = false;
        return false;
      }
      if (value === ":global" || value === "::v-global") {
        selector.replaceWith(n.nodes[0]);
        return false;
      }
    }
    if (n.type === "universal") {
      const prev = selector.at(selector.index(n) - 1);
      const next = selector.at(selector.index(n) + 1);
      if (!prev) {
        if (next) {
          if (next.type === "combinator" && next.value === " ") {
            selector.removeChild(next);
          }
          selector.removeChild(n);
          return;
        } else {
          node = selectorParser.combinator({
            value: ""
          });
          selector.insertBefore(n, node);
          selector.removeChild(n);
          return false;
        }
      }
      if (node) return;
    }
    if (!hasNestedDeep && (n.type !== "pseudo" && n.type !== "combinator" || n.type === "pseudo" && (n.value === ":is" || n.value === ":where") && !node)) {
      node = n;
    }
  });
  if (splitForNestedDeep) {
    return;
  }
  if (rule.nodes.some((node2) => node2.type === "rule")) {
    const deep2 = rule.__deep;
    shouldInject = deep2;
  }
  if (node && !hasNestedDeep) {
    const { type, value } = node;
    if (type === "pseudo" && (value === ":is" || value === ":where")) {
      node.nodes.forEach(
        (value2) => rewriteSelector(id, rule, value2, selectorRoot, deep, slotted)
      );
      shouldInject = false;
    }
  }
  if (node) {
    node.spaces.after = "";
  } else {
    selector.first.spaces.before = "";
  }
  if (shouldInject) {
    const idToAdd = slotted ? id + "-s" : id;
    selector.insertAfter(
      // If node is null it means we need to inject [id] at the start
      // insertAfter can handle `null` here
      node,
      selectorParser.attribute({
        attribute: idToAdd,
        value: idToAdd,
        raws: {},
        quoteMark: `"`
      })
    );
  }
}
function isSpaceCombinator(node) {
  return node.type === "combinator" && /^\s+$/.test(node.value);
}
function isDeepSelector(node) {
  var _a;
  if (node.type === "pseudo" && (node.value === ":deep" || node.value === "::v-deep")) {
    return true;
  }
  return !!((_a = node.nodes) == null ? void 0 : _a.some((child) => isDeepSelector(child)));
}
function isDeepContainerPseudo(node) {
  return node.type === "pseudo" && (node.value === ":is" || node.value === ":where" || node.value === ":has" || node.value === ":not");
}
function canSplitDeepContainerPseudo(node) {
  return node.value === ":is" || node.value === ":where" || node.value === ":has";
}
function splitSelectorForNestedDeep(id, rule, selector, selectorRoot, pseudo, deep, slotted) {
  const pseudoIndex = selector.index(pseudo);
  const selectors = pseudo.nodes.map((branch, index) => {
    const branchSelector = selector.clone();
    if (branchSelector.first) {
      branchSelector.first.spaces.before = index === 0 ? selector.first.spaces.before : " ";
    }
    const branchPseudo = branchSelector.at(pseudoIndex);
    const branchClone = branch.clone();
    if (branchClone.first) {
      branchClone.first.spaces.before = "";
    }
    branchPseudo.removeAll();
    branchPseudo.append(branchClone);
    rewriteSelector(id, rule, branchSelector, selectorRoot, deep, slotted);
    return branchSelector;
  });
  selector.replaceWith(...selectors);
}
