/**
 * The view page's script (served from /assets/view.js, no build step). It draws /knowledge/graph.json with
 * cytoscape (served from the installed package), searches through /knowledge/search, runs read-only Cypher
 * through /cypher, and shows the properties of a clicked node. Every text from the graph goes in through
 * textContent, never as markup. `window.cy` is the graph, for the browser console.
 */
import { QUERY_JS } from './view-query-script';

export const VIEW_JS = String.raw`(function () {
  'use strict';
  var COLORS = { Channel: '#6d4fc2', Customer: '#2f7dd1', Conversation: '#5b6b82', Inquiry: '#e0892b', Response: '#2e9b61', Attachment: '#c44569' };
  var OTHER_COLORS = ['#8c6d1f', '#1f8c89', '#8c1f6a', '#4d8c1f', '#1f4d8c'];
  var SIZES = { Channel: 30, Customer: 22, Conversation: 22 };
  var KEYS = { Channel: 'key', Conversation: 'convId' };
  var GRAPH_LIMIT = 300;
  var SEARCH_LIMIT = 20;
  var TABLE_ROWS = 500;
  var MAX_FIT_ZOOM = 1.4;

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function colorOf(label) {
    if (COLORS[label]) return COLORS[label];
    var hash = 0;
    for (var i = 0; i < label.length; i++) hash = (hash * 31 + label.charCodeAt(i)) | 0;
    return OTHER_COLORS[Math.abs(hash) % OTHER_COLORS.length];
  }

  function shorten(text, max) {
    text = String(text).replace(/\s+/g, ' ').trim();
    return text.length > max ? text.slice(0, max - 1) + '…' : text;
  }

  function badge(label) {
    var b = el('span', 'badge', label);
    b.style.backgroundColor = colorOf(label);
    return b;
  }

  function valueNode(value) {
    if (value === null || value === undefined) return el('span', 'null', 'null');
    if (typeof value === 'object') return document.createTextNode(JSON.stringify(value));
    return document.createTextNode(String(value));
  }

  function getJson(path) {
    return fetch(path, { headers: { accept: 'application/json' } })
      .then(function (response) {
        return response.json().catch(function () { return { ok: false, code: 'HTTP_' + response.status, message: 'The server answered HTTP ' + response.status + '.' }; });
      })
      .then(function (body) {
        if (!body.ok) {
          var error = new Error(body.message || body.code);
          error.code = body.code;
          throw error;
        }
        return body;
      });
  }

  function cypherString(text) { return "'" + String(text).replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'"; }

  // ---- the graph ----------------------------------------------------------------------------------

  var cy = cytoscape({
    container: $('graph'),
    minZoom: 0.1,
    maxZoom: 4,
    style: [
      { selector: 'node', style: {
        'background-color': 'data(color)', width: 'data(size)', height: 'data(size)', label: 'data(caption)',
        'font-size': 9, color: '#1d2330', 'text-valign': 'bottom', 'text-margin-y': 3, 'text-wrap': 'ellipsis',
        'text-max-width': 110, 'min-zoomed-font-size': 7, 'border-width': 1, 'border-color': '#ffffff' } },
      { selector: 'edge', style: {
        width: 1, 'line-color': '#c3cad6', 'target-arrow-color': '#c3cad6', 'target-arrow-shape': 'triangle',
        'arrow-scale': 0.6, 'curve-style': 'bezier', 'font-size': 8, color: '#5b6b82' } },
      { selector: 'edge:selected', style: { label: 'data(label)', 'line-color': '#2357d9', 'target-arrow-color': '#2357d9', width: 2 } },
      { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#1d2330' } },
      { selector: 'node.picked', style: { 'border-width': 4, 'border-color': '#d13b3b' } },
      { selector: 'node.hit', style: { 'border-width': 4, 'border-color': '#f2b600', 'z-index': 10 } },
      { selector: '.dim', style: { opacity: 0.25 } }
    ]
  });
  window.cy = cy;

  function nodeData(id, label, caption, properties) {
    return { id: id, label: label, caption: caption, color: colorOf(label), size: SIZES[label] || 16, properties: properties };
  }

  /** Adds the node when it is missing, placed near the node with id "near" when given; returns the graph's node. */
  function ensureNode(data, near) {
    var existing = cy.getElementById(data.id);
    if (existing.nonempty()) return existing;
    var anchor = near ? cy.getElementById(near) : cy.collection();
    var extent = cy.extent();
    var center = anchor.nonempty() ? anchor.position() : { x: (extent.x1 + extent.x2) / 2, y: (extent.y1 + extent.y2) / 2 };
    var angle = Math.random() * 2 * Math.PI;
    var distance = 40 + Math.random() * 40;
    return cy.add({ group: 'nodes', data: data, position: { x: center.x + Math.cos(angle) * distance, y: center.y + Math.sin(angle) * distance } });
  }

  function ensureEdge(label, source, target) {
    var id = label + ':' + source + '->' + target;
    if (cy.getElementById(id).nonempty() || cy.getElementById(source).empty() || cy.getElementById(target).empty()) return;
    cy.add({ group: 'edges', data: { id: id, source: source, target: target, label: label } });
  }

  /** Fits these elements in view, without zooming a few nodes up to a giant size. */
  function show(eles) {
    cy.fit(eles, 50);
    if (cy.zoom() > MAX_FIT_ZOOM) {
      cy.zoom(MAX_FIT_ZOOM);
      cy.center(eles);
    }
  }

  function layout(done) {
    var run = cy.layout({ name: 'cose', animate: false, randomize: true, idealEdgeLength: 50, nodeRepulsion: 6000, padding: 30, numIter: 1000 });
    run.one('layoutstop', function () {
      show(cy.elements());
      if (done) done();
    });
    run.run();
  }

  function showLegend(status) {
    var legend = $('legend');
    clear(legend);
    var labels = {};
    cy.nodes().forEach(function (n) { labels[n.data('label')] = true; });
    Object.keys(status.nodes || {}).forEach(function (label) { labels[label] = true; });
    Object.keys(labels).forEach(function (label) {
      var item = el('li');
      var swatch = el('span', 'swatch');
      swatch.style.backgroundColor = colorOf(label);
      item.appendChild(swatch);
      var count = status.nodes && status.nodes[label] !== undefined ? ' ' + status.nodes[label].toLocaleString() : '';
      item.appendChild(document.createTextNode(label + count));
      legend.appendChild(item);
    });
  }

  function sum(counts) { return Object.keys(counts || {}).reduce(function (total, key) { return total + counts[key]; }, 0); }

  function graphMessage(text) {
    var message = $('graph-message');
    message.textContent = text;
    message.hidden = !text;
  }

  function load() {
    Promise.all([getJson('/knowledge/status'), getJson('/knowledge/graph.json?limit=' + GRAPH_LIMIT)])
      .then(function (answers) {
        var status = answers[0];
        var view = answers[1];
        view.nodes.forEach(function (n) { cy.add({ group: 'nodes', data: nodeData(n.id, n.label, n.caption, n.properties) }); });
        view.edges.forEach(function (e) { ensureEdge(e.label, e.source, e.target); });
        var file = String(status.path).split(/[\\/]/).pop();
        $('summary').textContent = sum(status.nodes).toLocaleString() + ' nodes and ' + sum(status.relations).toLocaleString() + ' relations in ' + file +
          '; showing ' + view.nodes.length + ' nodes of the most recent conversations.';
        showLegend(status);
        if (view.nodes.length === 0) {
          graphMessage('The graph is empty: load past consultations with brandwire knowledge build.');
          document.body.dataset.state = 'empty';
          return;
        }
        layout(function () { document.body.dataset.state = 'ready'; });
      })
      .catch(function (error) {
        $('summary').textContent = error.code === 'NOT_INSTALLED' ? 'Not installed.' : 'The graph could not be read.';
        graphMessage(error.message);
        document.body.dataset.state = 'error';
      });
  }

  // ---- details ------------------------------------------------------------------------------------

  // A node reached through a relation to several tables (HAS_TURN) carries the properties of all of them, null
  // where not its own, so only the properties that are set are listed.
  function propertiesTable(properties) {
    var table = el('table', 'props');
    Object.keys(properties).forEach(function (key) {
      if (properties[key] === null || properties[key] === undefined) return;
      var row = el('tr');
      row.appendChild(el('th', '', key));
      var cell = el('td');
      cell.appendChild(valueNode(properties[key]));
      row.appendChild(cell);
      table.appendChild(row);
    });
    return table;
  }

  function action(text, query) {
    var button = el('button', 'secondary', text);
    button.type = 'button';
    button.addEventListener('click', function () {
      $('cypher-input').value = query;
      runCypher();
    });
    return button;
  }

  function nodeActions(label, properties) {
    var box = el('div', 'actions');
    if (label === 'Conversation') {
      box.appendChild(action('Show the turns', 'MATCH (c:Conversation {convId: ' + cypherString(properties.convId) + '})-[t:HAS_TURN]->(turn)\nRETURN t.turn AS turn, label(turn) AS kind, turn.text AS text, turn.ts AS at ORDER BY t.turn'));
    } else if (label === 'Customer') {
      box.appendChild(action('What they asked', 'MATCH (c:Customer {id: ' + cypherString(properties.id) + '})-[:ASKED]->(i:Inquiry)\nRETURN i ORDER BY i.ts DESC LIMIT 50'));
    } else if (label === 'Inquiry') {
      box.appendChild(action('How it was answered', 'MATCH (i:Inquiry {id: ' + cypherString(properties.id) + '})-[a:ANSWERED_BY]->(r:Response)\nRETURN r, a.turns AS turnsLater ORDER BY a.turns'));
    }
    return box;
  }

  function showNode(node) {
    var details = $('details');
    clear(details);
    var label = node.data('label');
    details.appendChild(badge(label));
    details.appendChild(el('h3', '', node.data('caption')));
    var properties = node.data('properties') || {};
    details.appendChild(propertiesTable(properties));
    details.appendChild(el('p', 'hint', node.degree(false) + ' relations shown on the graph'));
    details.appendChild(nodeActions(label, properties));
  }

  function showEdge(edge) {
    var details = $('details');
    clear(details);
    details.appendChild(el('h3', '', edge.data('label')));
    details.appendChild(propertiesTable({ from: edge.data('source'), to: edge.data('target') }));
  }

  function focus(node) {
    cy.elements().unselect();
    node.select();
    showNode(node);
    cy.animate({ center: { eles: node }, duration: 250 });
  }

  cy.on('tap', 'node', function (event) { showNode(event.target); });
  cy.on('tap', 'edge', function (event) { showEdge(event.target); });

${QUERY_JS}
  $('fit').addEventListener('click', function () { show(cy.elements()); });
  $('relayout').addEventListener('click', function () { layout(); });

  load();
})();
`;
