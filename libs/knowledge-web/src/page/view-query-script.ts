/**
 * The view page's search and Cypher parts: full-text search through /knowledge/search (hits added to the graph
 * and highlighted) and read-only Cypher through /cypher (a result table; node columns drawn on the graph). Part
 * of the one script of view-script.ts, which they run inside.
 */
export const QUERY_JS = String.raw`
  // ---- search -------------------------------------------------------------------------------------

  function hitNode(hit) {
    var label = hit.kind === 'inquiry' ? 'Inquiry' : 'Response';
    var conversation = 'Conversation:' + hit.convId;
    var properties = { id: hit.id, convId: hit.convId, turn: hit.turn, role: hit.role, text: hit.text, ts: hit.ts };
    var node = ensureNode(nodeData(label + ':' + hit.id, label, shorten(hit.text, 40), properties), conversation);
    ensureEdge('HAS_TURN', conversation, node.id());
    return node;
  }

  function clearSearch() {
    cy.elements().removeClass('hit dim');
    clear($('hits'));
    $('hit-count').textContent = '';
  }

  function search(text) {
    clearSearch();
    var status = $('search-status');
    status.className = 'hint';
    if (!text) {
      status.textContent = 'Search finds customer inquiries and agent or bot responses by their words.';
      return;
    }
    status.textContent = 'Searching…';
    getJson('/knowledge/search?q=' + encodeURIComponent(text) + '&limit=' + SEARCH_LIMIT)
      .then(function (body) {
        var hits = body.hits;
        $('hit-count').textContent = '(' + hits.length + ')';
        if (hits.length === 0) {
          status.textContent = 'Nothing matches “' + text + '”.';
          return;
        }
        status.textContent = 'Best first; highlighted on the graph.';
        var found = cy.collection();
        hits.forEach(function (hit) {
          var node = hitNode(hit);
          found = found.union(node);
          var item = el('li');
          item.tabIndex = 0;
          var meta = el('div', 'meta');
          meta.appendChild(badge(node.data('label')));
          meta.appendChild(el('span', '', hit.convId + ' #' + hit.turn));
          meta.appendChild(el('span', '', 'score ' + hit.score.toFixed(2)));
          item.appendChild(meta);
          item.appendChild(el('div', 'text', shorten(hit.text, 160)));
          item.addEventListener('click', function () { focus(node); });
          item.addEventListener('keydown', function (event) { if (event.key === 'Enter') focus(node); });
          $('hits').appendChild(item);
        });
        cy.elements().not(found.closedNeighborhood()).addClass('dim');
        found.addClass('hit');
        show(found.closedNeighborhood());
      })
      .catch(function (error) {
        status.textContent = error.message;
        status.className = 'error';
      });
  }

  $('search-form').addEventListener('submit', function (event) {
    event.preventDefault();
    search($('search-input').value.trim());
  });

  // ---- cypher -------------------------------------------------------------------------------------

  function isNodeValue(value) { return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value._label === 'string' && value._src === undefined; }

  function resultNode(value) {
    var label = value._label;
    var key = value[KEYS[label] || 'id'];
    var properties = {};
    Object.keys(value).forEach(function (name) { if (name.charAt(0) !== '_') properties[name] = value[name]; });
    var caption = typeof value.text === 'string' ? shorten(value.text, 40) : String(key);
    var near = typeof value.convId === 'string' ? 'Conversation:' + value.convId : undefined;
    return ensureNode(nodeData(label + ':' + key, label, caption, properties), near);
  }

  function resultCell(value, picked) {
    var cell = el('td');
    if (typeof value === 'number') cell.className = 'number';
    var values = Array.isArray(value) && value.length > 0 && value.every(isNodeValue) ? value : isNodeValue(value) ? [value] : null;
    if (values === null) {
      cell.appendChild(valueNode(value));
      return cell;
    }
    values.forEach(function (v) {
      var node = resultNode(v);
      picked.push(node);
      var chip = el('button', 'chip', v._label + ' ' + node.data('caption'));
      chip.type = 'button';
      chip.title = 'Show on the graph';
      chip.addEventListener('click', function () { focus(node); });
      cell.appendChild(chip);
    });
    return cell;
  }

  function showResult(result) {
    var box = $('cypher-result');
    clear(box);
    var table = el('table');
    var head = el('tr');
    result.columns.forEach(function (column, i) {
      var th = el('th', '', column);
      th.appendChild(el('span', 'type', result.types[i]));
      head.appendChild(th);
    });
    table.appendChild(head);
    var picked = [];
    result.rows.slice(0, TABLE_ROWS).forEach(function (row) {
      var tr = el('tr');
      row.forEach(function (value) { tr.appendChild(resultCell(value, picked)); });
      table.appendChild(tr);
    });
    box.appendChild(table);
    cy.nodes().removeClass('picked');
    if (picked.length > 0) {
      var nodes = cy.collection(picked);
      nodes.addClass('picked');
      show(nodes.closedNeighborhood());
    }
    var shown = result.rows.length > TABLE_ROWS ? ' (the first ' + TABLE_ROWS + ' shown)' : '';
    return result.rows.length + (result.rows.length === 1 ? ' row' : ' rows') + shown + (picked.length > 0 ? '; nodes marked red on the graph' : '');
  }

  function runCypher() {
    var text = $('cypher-input').value.trim();
    var status = $('cypher-status');
    status.className = '';
    if (!text) {
      status.textContent = 'Write a statement first.';
      return;
    }
    status.textContent = 'Running…';
    getJson('/cypher?q=' + encodeURIComponent(text))
      .then(function (result) { status.textContent = showResult(result); })
      .catch(function (error) {
        status.textContent = error.message;
        status.className = 'error';
      });
  }

  $('cypher-form').addEventListener('submit', function (event) {
    event.preventDefault();
    runCypher();
  });
  $('cypher-input').addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      runCypher();
    }
  });

`;
