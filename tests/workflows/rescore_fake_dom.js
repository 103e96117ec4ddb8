// Runs the script of a rescore disagreements.html page under Node with a minimal DOM (tests/workflows/test_rescore.py),
// so that its filters, highlights and keyboard moves are checked where no headless browser is installed.
const fs = require('fs');
const html = fs.readFileSync(process.argv[2], 'utf8');
const data = html.split('<script type="application/json" id="data">')[1].split('</script>')[0];
const script = html.split('<script>').pop().split('</script>')[0];
let active = null; const listeners = {};
class Node { constructor(tag) { this.tagName = (tag || '').toUpperCase(); this.children = []; this.dataset = {}; this.classList = new Set(); this.classList.toggle = c => this.classList.has(c) ? this.classList.delete(c) : this.classList.add(c); this._text = ''; this.options = []; this.value = ''; }
  appendChild(c) { this.children.push(c); if (this.tagName === 'SELECT') { this.options.push(c); if (this.options.length === 1) this.value = c.value; } return c; }
  replaceChildren(...c) { this.children = c; }
  set textContent(t) { this._text = t; this.children = []; } get textContent() { return this._text + this.children.map(c => c.textContent).join(''); }
  addEventListener(ev, f) { (this._l = this._l || {})[ev] = f; }
  focus() { active = this; }
  all(tag) { let out = []; for (const c of this.children) { if (c.tagName === tag) out.push(c); if (c.all) out = out.concat(c.all(tag)); } return out; } }
const byId = {}; for (const id of ['data', 'list', 'count', 'f-model', 'f-direction', 'f-kind', 'selftest-result']) byId[id] = new Node(id.startsWith('f-') ? 'select' : 'div');
byId.data._text = data;
global.document = { getElementById: id => byId[id], createElement: t => new Node(t), createTextNode: t => { const n = new Node(''); n._text = t; return n; },
  querySelectorAll: sel => byId.list.all(sel.toUpperCase()), addEventListener: (ev, f) => { listeners[ev] = f; }, get activeElement() { return active; } };
global.location = { hash: '#selftest' };
eval(script);
console.log(byId['selftest-result'].textContent);
