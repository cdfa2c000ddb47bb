/**
 * The view page (served at /): markup only; the script and style are separate files, as the CSP requires.
 * cytoscape inserts an inline <style> (which the CSP blocks) unless an element with the id
 * "__________cytoscape_stylesheet" exists, so the page's own style sheet carries that id.
 */
export const VIEW_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Brandwire knowledge graph</title>
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/view.css" id="__________cytoscape_stylesheet">
<script src="/assets/cytoscape.min.js" defer></script>
<script src="/assets/view.js" defer></script>
</head>
<body data-state="loading">
<header>
  <h1>Knowledge graph</h1>
  <p id="summary" aria-live="polite">Loading…</p>
  <form id="search-form" role="search">
    <input id="search-input" type="search" placeholder="Search what customers asked and agents answered" aria-label="Full-text search" autocomplete="off">
    <button type="submit">Search</button>
  </form>
</header>
<main>
  <section id="graph-pane" aria-label="Graph">
    <div id="graph"></div>
    <div id="toolbar">
      <button type="button" id="fit" class="secondary" title="Fit the whole graph in view">Fit</button>
      <button type="button" id="relayout" class="secondary" title="Lay the graph out again">Re-layout</button>
    </div>
    <ul id="legend" aria-label="Node labels"></ul>
    <p id="graph-message" hidden></p>
  </section>
  <aside>
    <section>
      <h2>Details</h2>
      <div id="details"><p class="hint">Click a node to see its properties.</p></div>
    </section>
    <section>
      <h2>Search hits <span id="hit-count"></span></h2>
      <p id="search-status" class="hint">Search finds customer inquiries and agent or bot responses by their words.</p>
      <ol id="hits"></ol>
    </section>
  </aside>
</main>
<section id="cypher-pane" aria-label="Cypher">
  <form id="cypher-form">
    <label for="cypher-input">Cypher <span class="hint">read-only · Ctrl+Enter runs</span></label>
    <textarea id="cypher-input" rows="2" spellcheck="false">MATCH (c:Customer)-[:ASKED]->(i:Inquiry) RETURN c.userKey AS customer, i ORDER BY i.ts DESC LIMIT 25</textarea>
    <div class="row"><button type="submit">Run</button><span id="cypher-status" aria-live="polite"></span></div>
  </form>
  <div id="cypher-result"></div>
</section>
</body>
</html>
`;
