/** The pairing page: static markup; the code from `?code=` is filled in by the script, never by the server. */
export const PAIR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pair the Brandwire CLI</title>
<link rel="stylesheet" href="/pair/pair.css">
</head>
<body>
<main>
<h1>Pair the Brandwire command-line tool</h1>
<p><code>brandwire login</code> shows a code. Check that the code below is the one in your terminal, then approve it
with an Admin key. The CLI receives a new key with the scope and brands you choose; your Admin key stays in this page.</p>
<form id="unlock">
  <label for="user-code">Code shown by the CLI</label>
  <input id="user-code" name="user_code" autocomplete="off" spellcheck="false" required placeholder="BCDF-GHJK">
  <label for="admin-key">Your Admin key</label>
  <input id="admin-key" name="admin_key" type="password" autocomplete="off" required placeholder="bw_…">
  <button id="continue" type="submit">Continue</button>
</form>
<form id="grant" hidden>
  <p id="approver"></p>
  <label for="scope">Scope of the new key</label>
  <select id="scope" name="scope">
    <option value="BrandRead">BrandRead: read rooms and messages</option>
    <option value="BrandWrite" selected>BrandWrite: also send</option>
    <option value="Admin">Admin: also change settings</option>
  </select>
  <fieldset id="brands"><legend>Brands of the new key</legend></fieldset>
  <label for="key-name">Name of the new key</label>
  <input id="key-name" name="name" maxlength="100" value="brandwire-cli">
  <div class="actions">
    <button id="approve" type="submit">Approve</button>
    <button id="deny" type="button" class="secondary">Deny</button>
  </div>
</form>
<p id="status" role="status" aria-live="polite"></p>
</main>
<script src="/pair/pair.js"></script>
</body>
</html>
`;
