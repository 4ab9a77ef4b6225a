// pbem's second verifier (issue 18): protocol section 7, in the browser, from the text of
// a save. Written from ../shared/docs/protocol.md alone, so that it can disagree with pbem:
// armor, canonical JSON, SSHSIG with Ed25519 (Web Crypto), SHA-256, the hash chains, the
// deferral rule, the generator with rejection sampling, commitments and opened private
// draws. The rules of the game are not re-run here, and the verdict says so: only
// `pbem verify` (or the reader's own store) checks them. A page is only as trustworthy as
// whoever made it: this script is theirs too, so the verdict names the head it checked
// (seq and id), for the reader to compare with their own `pbem show`.
//
// pbemVerify(text) resolves to one verdict (text: a save text, or a page's {gzip: base64}):
//   {status: "verified", entries, dice, privateUnopened, opened, selfWitnessed,
//    keys: [[role, "SHA256:..."]], game, head: {seq, id}}
//   {status: "failed", seq, by, why, entries, dice}   (seq/by: the first bad entry, or null)
//   {status: "unsupported", why}                      (no Ed25519 in this browser's Web Crypto)
"use strict";
(function (root) {
  const ENC = new TextEncoder();
  const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const NAMESPACE = "pbem-entry";
  const KEY_TYPE = "ssh-ed25519";
  const TWO64 = 1n << 64n;

  class Bad extends Error {
    constructor(why, entry) {
      super(why);
      this.seq = entry ? entry.seq : null;
      this.by = entry ? entry.by : null;
    }
  }
  class Unsupported extends Error {}

  // --- bytes -------------------------------------------------------------------------------

  function concat(...parts) {
    const size = parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
  const ascii = (s) => ENC.encode(s);
  function u32(n) {
    return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  }
  function u64(k) {
    const out = new Uint8Array(8);
    let v = BigInt(k);
    for (let i = 7; i >= 0; i--) {
      out[i] = Number(v & 255n);
      v >>= 8n;
    }
    return out;
  }
  const sshString = (bytes) => concat(u32(bytes.length), bytes);
  function toHex(bytes) {
    let s = "";
    for (const b of bytes) s += b.toString(16).padStart(2, "0");
    return s;
  }
  // A hex field of the protocol: lowercase, exactly `size` bytes.
  function fromHex(text, what, size = 32) {
    if (typeof text !== "string" || text.length !== 2 * size || !/^[0-9a-f]*$/.test(text)) {
      throw new Error(`${what} is not ${2 * size} lowercase hex digits`);
    }
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return out;
  }
  function equal(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  function base64(bytes) {
    let s = "";
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  }
  function unbase64(text) {
    const s = atob(text);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  async function sha256(...parts) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", concat(...parts)));
  }
  async function sha512(bytes) {
    return new Uint8Array(await crypto.subtle.digest("SHA-512", bytes));
  }

  // --- armor (section 7) -------------------------------------------------------------------

  const DECORATION = String.raw`(?:[^\S\n]|>|\[\/?[A-Za-z]+(?:=[^\]\n]*)?\]|\`)*`;
  const MARKER = new RegExp(
    String.raw`^${DECORATION}[-\u2013\u2014]+[^\S\n]*(BEGIN|END)[^\S\n]*PBEM[^\S\n]*ENTRY[^\S\n]*[-\u2013\u2014]+${DECORATION}$`,
    "i",
  );

  function base32(payload) {
    const n = payload.length;
    const spare = (5 * n) % 8;
    if (n === 0 || spare >= 5) throw new Error(`payload of ${n} characters is not whole bytes`);
    const out = new Uint8Array(Math.floor((5 * n) / 8));
    let bits = 0;
    let value = 0;
    let at = 0;
    for (const ch of payload.toUpperCase()) {
      const digit = B32.indexOf(ch);
      if (digit < 0) throw new Error(`character ${JSON.stringify(ch)} is not base32`);
      value = ((value << 5) | digit) & 0xffff;
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        out[at++] = (value >> bits) & 255;
      }
    }
    if (value & ((1 << bits) - 1)) throw new Error("payload's last character is damaged");
    return out;
  }

  // Every armored entry of `text` as {canonical, signature}, in order.
  function readArmored(text) {
    const found = [];
    let payload = null;
    for (const line of text.split(/\r\n|\r|\n/)) {
      const marker = MARKER.exec(line);
      const kind = marker ? marker[1].toUpperCase() : null;
      if (kind === "BEGIN") {
        if (payload !== null) throw new Bad("an entry's armor has no END line");
        payload = "";
      } else if (kind === "END") {
        if (payload === null) throw new Bad("an END line without its BEGIN");
        found.push(unpack(payload, found.length));
        payload = null;
      } else if (payload !== null) {
        payload += line.replace(/^[\s>]+/, "").replace(/\s+/g, "");
      }
    }
    if (payload !== null) throw new Bad("an entry's armor has no END line");
    if (!found.length) throw new Bad("no PBEM entries in this text");
    return found;
  }

  function unpack(payload, index) {
    let data;
    try {
      data = base32(payload);
    } catch (e) {
      throw new Bad(`armored entry ${index + 1} is damaged: ${e.message}`);
    }
    const view = new DataView(data.buffer);
    const damaged = (why) => new Bad(`armored entry ${index + 1} is damaged: ${why}`);
    if (data.length < 4) throw damaged("too short");
    const cLen = view.getUint32(0);
    if (4 + cLen + 4 > data.length) throw damaged("entry length runs past the end");
    const sLen = view.getUint32(4 + cLen);
    const end = 8 + cLen + sLen;
    if (end !== data.length) throw damaged("signature length does not end the payload");
    return { canonical: data.slice(4, 4 + cLen), signature: data.slice(8 + cLen, end) };
  }

  // --- canonical JSON (section 3) ----------------------------------------------------------

  function canonical(value) {
    if (value === null || typeof value === "boolean" || typeof value === "string") {
      return JSON.stringify(value);
    }
    if (typeof value === "number") {
      if (!Number.isSafeInteger(value)) throw new Error("a number that is no safe integer");
      return String(value);
    }
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    const keys = Object.keys(value);
    for (const key of keys) {
      if (!/^[\x00-\x7f]*$/.test(key)) throw new Error(`non-ASCII key ${JSON.stringify(key)}`);
    }
    keys.sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }

  const UTF8 = new TextDecoder("utf-8", { fatal: true });
  function parseCanonical(bytes, what) {
    let text;
    try {
      text = UTF8.decode(bytes);
    } catch (e) {
      throw new Error(`${what} is not UTF-8`);
    }
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new Error(`${what} is not JSON`);
    }
    if (canonical(value) !== text) throw new Error(`${what} is not canonical JSON`);
    return value;
  }

  // --- keys and SSHSIG (sections 2 and 8) ---------------------------------------------------

  function keyOfLine(line, role) {
    const parts = typeof line === "string" ? line.split(" ") : [];
    if (parts.length < 2 || parts[0] !== KEY_TYPE) throw new Error(`role ${role}: not an ssh-ed25519 key line`);
    let blob;
    try {
      blob = unbase64(parts[1]);
    } catch (e) {
      throw new Error(`role ${role}: key line not in canonical form (its base64 does not decode)`);
    }
    const head = sshString(ascii(KEY_TYPE));
    if (blob.length !== head.length + 4 + 32 || !equal(blob.slice(0, head.length + 4), concat(head, u32(32)))) {
      throw new Error(`role ${role}: not an Ed25519 public key`);
    }
    if (base64(blob) !== parts[1]) throw new Error(`role ${role}: key line not in canonical form`);
    return { blob, raw: blob.slice(blob.length - 32) };
  }

  async function fingerprint(blob) {
    return "SHA256:" + base64(await sha256(blob)).replace(/=+$/, "");
  }

  const edKeys = new Map();
  async function edKey(raw) {
    const id = toHex(raw);
    if (!edKeys.has(id)) {
      let key;
      try {
        key = await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]);
      } catch (e) {
        if (e && (e.name === "NotSupportedError" || e.name === "SyntaxError" || e.name === "TypeError")) {
          throw new Unsupported("this browser cannot check Ed25519 signatures");
        }
        throw e;
      }
      edKeys.set(id, key);
    }
    return edKeys.get(id);
  }

  // The one encoding of an entry's signature by `key` (section 8), and its Ed25519 check.
  async function checkSignature(key, message, blob) {
    const sigHead = concat(sshString(ascii(KEY_TYPE)), u32(64));
    const head = concat(
      ascii("SSHSIG"), u32(1), sshString(key.blob), sshString(ascii(NAMESPACE)),
      sshString(new Uint8Array(0)), sshString(ascii("sha512")), u32(sigHead.length + 64), sigHead,
    );
    if (blob.length !== head.length + 64 || !equal(blob.slice(0, head.length), head)) {
      throw new Error("its signature is not an SSHSIG by the role's key in its one encoding");
    }
    const signed = concat(
      ascii("SSHSIG"), sshString(ascii(NAMESPACE)), sshString(new Uint8Array(0)),
      sshString(ascii("sha512")), sshString(await sha512(message)),
    );
    const ok = await crypto.subtle.verify("Ed25519", await edKey(key.raw), blob.slice(head.length), signed);
    if (!ok) throw new Error("bad signature: data or signature altered");
  }

  // --- the generator (section 7) -----------------------------------------------------------

  class Stream {
    constructor(seed) {
      this.seed = seed;
      this.block = 0;
      this.bytes = new Uint8Array(0);
      this.at = 0;
    }
    async next8() {
      while (this.bytes.length - this.at < 8) {
        if (!this.key) {
          this.key = await crypto.subtle.importKey("raw", this.seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
        }
        const more = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, u64(this.block++)));
        this.bytes = concat(this.bytes.slice(this.at), more);
        this.at = 0;
      }
      const out = this.bytes.slice(this.at, this.at + 8);
      this.at += 8;
      return out;
    }
    async int(n) {
      const limit = TWO64 - (TWO64 % n);
      for (;;) {
        let x = 0n;
        for (const b of await this.next8()) x = (x << 8n) | BigInt(b);
        if (x < limit) return x % n;
      }
    }
    async between(lo, hi) {
      return lo + (await this.int(hi - lo + 1n));
    }
  }

  // --- the RNG log of a save (section 7) ---------------------------------------------------

  function readRngLog(text) {
    const lines = [];
    for (const line of text.split(/\r\n|\r|\n/)) {
      if (!line.startsWith("rng ")) continue;
      const pub = /^rng (\d+) (\d+) (-?\d+)\.\.(-?\d+) (-?\d+) (.*)$/.exec(line);
      const priv = /^rng (\d+) (\d+) private (.*)$/.exec(line);
      if (pub) {
        lines.push({ line, req: +pub[1], prod: +pub[2], lo: BigInt(pub[3]), hi: BigInt(pub[4]), value: BigInt(pub[5]) });
      } else if (priv) {
        lines.push({ line, req: +priv[1], prod: +priv[2], private: true });
      } else {
        throw new Bad(`RNG log line ${JSON.stringify(line.slice(0, 60))} is not a draw`);
      }
    }
    return lines;
  }

  // --- the log (sections 3, 4, 5) ----------------------------------------------------------

  async function verifyText(text) {
    const armored = readArmored(text);
    const entries = [];
    for (const [i, a] of armored.entries()) {
      let fields;
      try {
        fields = parseCanonical(a.canonical, `entry ${i}`);
      } catch (e) {
        throw new Bad(e.message);
      }
      if (typeof fields !== "object" || fields === null || Array.isArray(fields)) throw new Bad(`entry ${i} is not an object`);
      entries.push({ ...a, fields, seq: fields.seq, by: fields.by, kind: fields.kind, body: fields.body, id: toHex(await sha256(a.canonical)) });
    }
    const genesis = entries[0];
    if (genesis.kind !== "genesis" || genesis.seq !== 0) throw new Bad("the first entry of a log must be its genesis", genesis);
    const game = genesis.id;
    const gameRaw = fromHex(game, "game id");
    const body = genesis.body || {};
    if (typeof body.roles !== "object" || body.roles === null) throw new Bad("the genesis names no roles", genesis);
    const keys = {};
    for (const [role, line] of Object.entries(body.roles)) {
      try {
        keys[role] = keyOfLine(line, role);
      } catch (e) {
        throw new Bad(e.message, genesis);
      }
    }
    const roleOf = (entry) => {
      if (typeof entry.by !== "string" || !(entry.by in keys)) throw new Bad(`${JSON.stringify(entry.by)} is not a role of this game`, entry);
      return keys[entry.by];
    };
    try {
      await checkSignature(roleOf(genesis), genesis.canonical, genesis.signature);
    } catch (e) {
      if (e instanceof Unsupported || e instanceof Bad) throw e;
      throw new Bad(e.message, genesis);
    }

    const chains = {}; // role -> {last: bytes, used, length}
    const joinOrder = [];
    const sealed = {}; // label -> {digest, role, seq, opened, value}
    for (let i = 1; i < entries.length; i++) {
      const entry = entries[i];
      const f = entry.fields;
      const key = roleOf(entry);
      try {
        await checkSignature(key, entry.canonical, entry.signature);
      } catch (e) {
        if (e instanceof Unsupported) throw e;
        throw new Bad(e.message, entry);
      }
      if (f.game !== game) throw new Bad(`belongs to game ${String(f.game).slice(0, 12)}, not ${game.slice(0, 12)}`, entry);
      if (f.seq !== i || f.prev !== entries[i - 1].id) {
        throw new Bad(`does not follow the head: expected seq ${i} after ${entries[i - 1].id.slice(0, 12)}`, entry);
      }
      if (f.v !== 1) throw new Bad("protocol version is not 1", entry);
      const b = f.body;
      if (typeof b !== "object" || b === null || Array.isArray(b)) throw new Bad("its body is not an object", entry);
      if (f.kind === "join") {
        if (entry.by in chains) throw new Bad(`${entry.by} has already joined`, entry);
        if ("reveal" in f) throw new Bad("a join reveals nothing", entry);
        if (!Number.isSafeInteger(b.length) || b.length < 4096) throw new Bad("hash-chain length must be an integer >= 4096", entry);
        let anchor;
        try {
          anchor = fromHex(b.anchor, "anchor");
        } catch (e) {
          throw new Bad(e.message, entry);
        }
        chains[entry.by] = { last: anchor, used: 0, length: b.length };
        joinOrder.push(entry.by);
        continue;
      }
      const chain = chains[entry.by];
      if (!chain) throw new Bad(`${entry.by} has not joined`, entry);
      let reveal;
      try {
        reveal = fromHex(f.reveal, "reveal");
      } catch (e) {
        throw new Bad(e.message, entry);
      }
      if (chain.used >= chain.length) throw new Bad(`${entry.by}'s hash chain is used up`, entry);
      if (!equal(await sha256(ascii("pbem-chain/v1"), reveal), chain.last)) {
        throw new Bad(`reveal does not hash to ${entry.by}'s previous chain value`, entry);
      }
      chain.last = reveal;
      chain.used += 1;
      entry.reveal = reveal;
      // Commitments and their openings (section 5).
      if ("commit" in b) {
        if (typeof b.commit !== "object" || b.commit === null || Array.isArray(b.commit)) throw new Bad("commit must be an object", entry);
        for (const [label, digest] of Object.entries(b.commit)) {
          if (label in sealed) throw new Bad(`${label} is already committed (entry ${sealed[label].seq})`, entry);
          try {
            fromHex(digest, `commitment ${label}`);
          } catch (e) {
            throw new Bad(e.message, entry);
          }
          sealed[label] = { digest, role: entry.by, seq: i, opened: false };
        }
      }
      if ("open" in b) {
        if (!Array.isArray(b.open)) throw new Bad("open must be a list of openings", entry);
        // A double-blind game's referee discloses every value still sealed, anyone's.
        const anyones = f.kind === "disclose" && entry.by === "referee";
        for (const opening of b.open) {
          await checkOpening(opening, entry, anyones);
        }
      }
    }

    async function checkOpening(opening, entry, anyones) {
      if (typeof opening !== "object" || opening === null || Object.keys(opening).sort().join() !== "label,salt,value") {
        throw new Bad("an opening must be an object with exactly label, salt and value", entry);
      }
      const known = sealed[opening.label];
      if (!known) throw new Bad(`opens ${opening.label}, which was never committed`, entry);
      if (known.seq === entry.seq) throw new Bad(`commits and opens ${opening.label} in one entry`, entry);
      if (known.role !== entry.by && !anyones) throw new Bad(`${opening.label} was committed by ${known.role}, not ${entry.by}`, entry);
      if (known.opened) throw new Bad(`${opening.label} was already opened`, entry);
      let digest;
      try {
        const label = ENC.encode(opening.label);
        digest = await sha256(
          ascii("pbem-commit/v1"), gameRaw, u32(label.length), label,
          fromHex(opening.salt, "salt"), ENC.encode(canonical(opening.value)),
        );
      } catch (e) {
        throw new Bad(`opening of ${JSON.stringify(opening.label)}: ${e.message}`, entry);
      }
      if (toHex(digest) !== known.digest) throw new Bad(`opening of ${JSON.stringify(opening.label)} does not match its commitment`, entry);
      known.opened = true;
      known.value = opening.value;
    }

    // The dice (section 4): each line recomputed, from the entry it names as its producer,
    // which must be the requesting entry's witness's next entry (the deferral rule).
    const witness = (author) => {
      if (joinOrder.includes("referee") && author !== "referee") return "referee";
      return joinOrder.find((r) => r !== author) || author;
    };
    const lines = readRngLog(text);
    const groups = new Map();
    for (const line of lines) {
      const k = `${line.req} ${line.prod}`;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(line);
    }
    let dice = 0;
    let privateUnopened = 0;
    for (const group of groups.values()) {
      const { req, prod } = group[0];
      const E = entries[req];
      const F = entries[prod];
      const where = `RNG log line ${JSON.stringify(group[0].line.slice(0, 60))}`;
      if (!E || !F || req < 1 || prod <= req) throw new Bad(`${where}: no such requesting and producing entries`);
      const roller = witness(E.by);
      if (F.by !== roller || !F.reveal) throw new Bad(`${where}: entry ${prod} by ${F.by} cannot roll entry ${req}'s dice (its witness is ${roller})`);
      for (let s = req + 1; s < prod; s++) {
        if (entries[s].by === roller) throw new Bad(`${where}: entry ${s} by ${roller} rolled entry ${req}'s dice first`);
      }
      if (group.some((line) => line.private)) {
        if (!group.every((line) => line.private)) throw new Bad(`${where}: an entry's draws are all public or all private`);
        privateUnopened += group.length;
        continue;
      }
      const eRaw = fromHex(E.id, "entry id");
      const seeds = [await sha256(ascii("pbem-rng/v1"), gameRaw, eRaw, F.reveal)];
      // A private draw's secret is committed by the requesting entry and opened since.
      for (const [label, item] of Object.entries(sealed)) {
        if (item.seq === req && item.opened && typeof item.value === "string" && /^[0-9a-f]{64}$/.test(item.value)) {
          seeds.push(await sha256(ascii("pbem-private/v1"), gameRaw, eRaw, fromHex(item.value, label), F.reveal));
        }
      }
      let matched = false;
      for (const seed of seeds) {
        const stream = new Stream(seed);
        let all = true;
        for (const line of group) {
          if ((await stream.between(line.lo, line.hi)) !== line.value) {
            all = false;
            break;
          }
        }
        if (all) {
          matched = true;
          break;
        }
      }
      if (!matched) throw new Bad(`${where}: the value is not the one the entries give`);
      dice += group.length;
    }
    const roleKeys = [];
    for (const [role, key] of Object.entries(keys)) roleKeys.push([role, await fingerprint(key.blob)]);
    // Keys are compared as keys (section 8): a role whose witness signs with its own key
    // rolls its own dice, however the two key lines are written.
    const selfWitnessed = joinOrder.some((role) => equal(keys[witness(role)].raw, keys[role].raw));
    const opened = Object.values(sealed).filter((item) => item.opened).length;
    const last = entries[entries.length - 1];
    const head = { seq: last.seq, id: last.id };
    return { status: "verified", entries: entries.length, dice, privateUnopened, opened, selfWitnessed, keys: roleKeys, game, head };
  }

  // Base32 of `bytes`, upper case, no padding: an armor's payload (section 7).
  function toBase32(bytes) {
    let s = "";
    let value = 0;
    let bits = 0;
    for (const b of bytes) {
      value = ((value << 8) | b) & 0xfff;
      bits += 8;
      while (bits >= 5) {
        bits -= 5;
        s += B32[(value >> bits) & 31];
      }
    }
    if (bits) s += B32[(value << (5 - bits)) & 31];
    return s;
  }

  // The armored entry of a payload, as pbem writes it (pbem.transport.armor.armor).
  function armorOf(payload) {
    const text = toBase32(payload);
    const lines = [];
    for (let i = 0; i < text.length; i += 64) lines.push(text.slice(i, i + 64));
    return `-----BEGIN PBEM ENTRY-----\n${lines.join("\n")}\n-----END PBEM ENTRY-----\n`;
  }

  // The save text of a page's {"gzip-raw": ...} container (pbem.transport.savepack):
  // u32(N) || T0 || P1 || T1 || ... || PN || TN, each T u32(length) || UTF-8 text, each P
  // an armor's payload u32(len C) || C || u32(len S) || S. Read whole and strictly, as
  // `pbem verify PAGE.html` reads it: anything else is damage, never a part of the save.
  function unpackSave(data) {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const damaged = (why) => new Bad(`the page's game is damaged: ${why}`);
    let at = 0;
    const take = (n) => {
      if (n > data.length - at) throw damaged("a part runs past its end");
      at += n;
      return data.subarray(at - n, at);
    };
    const number = () => {
      take(4);
      return view.getUint32(at - 4);
    };
    const text = () => {
      try {
        return UTF8.decode(take(number()));
      } catch (e) {
        if (e instanceof Bad) throw e;
        throw damaged("not UTF-8");
      }
    };
    const count = number();
    const pieces = [text()];
    for (let i = 0; i < count; i++) {
      const start = at;
      take(number());
      take(number());
      pieces.push(armorOf(data.subarray(start, at)), text());
    }
    if (at !== data.length) throw damaged(`${data.length - at} bytes after its last part`);
    return pieces.join("");
  }

  // The save text a page carries (issue 29): as it is, {gzip: base64 of its gzip} or
  // {"gzip-raw": base64 of the gzip of its container}, read as strictly as
  // `pbem verify PAGE.html` reads it (pbem.transport.htmltext).
  async function saveText(data) {
    if (typeof data === "string") return data;
    const key = typeof data === "object" && data !== null ? Object.keys(data).join() : "";
    if ((key !== "gzip" && key !== "gzip-raw") || typeof data[key] !== "string") {
      throw new Bad("the page's game is not a save text, nor {gzip: base64}");
    }
    const packed = data[key];
    if (typeof DecompressionStream !== "function") throw new Unsupported("this browser cannot inflate the game this page carries");
    if (packed.length % 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(packed)) throw new Bad("the page's game is damaged: not base64");
    let bytes;
    try {
      const stream = new Blob([unbase64(packed)]).stream().pipeThrough(new DecompressionStream("gzip"));
      bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    } catch (e) {
      throw new Bad("the page's game is damaged: not gzip");
    }
    if (key === "gzip-raw") return unpackSave(bytes);
    try {
      return UTF8.decode(bytes);
    } catch (e) {
      throw new Bad("the page's game is damaged: not UTF-8");
    }
  }

  // `saved`: a save text, or a page's {gzip: ...}.
  async function pbemVerify(saved) {
    try {
      return await verifyText(await saveText(saved));
    } catch (e) {
      if (e instanceof Unsupported) return { status: "unsupported", why: e.message };
      if (e instanceof Bad) return { status: "failed", seq: e.seq, by: e.by, why: e.message };
      return { status: "failed", seq: null, by: null, why: String((e && e.message) || e) };
    }
  }

  // What was checked, said as exactly that: the head it ends at (seq and full id, as
  // `pbem show` prints it) and what of section 7 held; never the rules, which it does not
  // run (a move after the game's end, say, passes here and fails `pbem verify`).
  function sentence(v) {
    if (v.status === "verified") {
      const keys = v.keys.map(([role, fp]) => `${role} ${fp}`).join(", ");
      const sealedDice = v.privateUnopened ? ` (${v.privateUnopened} private draws still sealed)` : "";
      const own = v.selfWitnessed ? " (SELF-WITNESSED: one key rolls its own dice)" : "";
      return (
        `checked in this browser, the rules NOT checked: game ${v.game.slice(0, 12)}, ` +
        `${v.entries} entries to head seq ${v.head.seq} id ${v.head.id}; ` +
        `every signature, hash chain and reveal, ${v.dice} dice recomputed${sealedDice}${own}, ` +
        `${v.opened} commitments opened; keys ${keys}`
      );
    }
    if (v.status === "unsupported") return v.why;
    return v.seq === null ? `NOT VERIFIED: ${v.why}` : `NOT VERIFIED: entry ${v.seq} by ${v.by}: ${v.why}`;
  }

  root.pbemVerify = pbemVerify;
  root.pbemSaveText = saveText; // (the save text a page's data rebuilds: tests compare it)
  root.pbemVerdictText = sentence;

  // On a turn page: verify the game it carries and say so.
  const source = root.document && root.document.getElementById("pbem-save");
  const out = root.document && root.document.getElementById("pbem-verdict");
  if (source && out) {
    pbemVerify(JSON.parse(source.textContent)).then((v) => {
      out.textContent = sentence(v);
      out.dataset.status = v.status;
      out.dataset.entries = String(v.entries ?? "");
      out.dataset.dice = String(v.dice ?? "");
      out.dataset.seq = v.seq === null || v.seq === undefined ? "" : String(v.seq);
      out.dataset.headSeq = v.head ? String(v.head.seq) : "";
      out.dataset.headId = v.head ? v.head.id : "";
      out.className = `verdict ${v.status}`;
    });
  }
})(globalThis);
