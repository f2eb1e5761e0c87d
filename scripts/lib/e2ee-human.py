#!/usr/bin/env python3
"""A person with a real end-to-end encrypting Matrix client (matrix-nio + libolm), for the Matrix encryption tests.

It behaves like Element since April 2026 (MSC4153, "exclude insecure devices"): its user has cross-signing keys, and
a device counts only when its owner's self-signing key signed it and the master key signed that self-signing key
(the master key is trusted on first use). Room keys go to such devices only, and what other devices send is not
shown. docs/matrix-identity.md has the protocol facts.

Driven over stdin/stdout, one JSON object per line each way, by Tests/MatrixTestKit/MatrixE2EEHuman.swift (and by
scripts/crash-matrix):
  {"cmd": "login", "user": "@u:localhost", "password": "…", "cross_sign": true, "policy": "element"}
      -> {"ok": true, "device": "…", "cross_signed": bool, "master_key": "<pub>"|null, "uia": bool}
      cross_sign (default true): after logging in and uploading its device keys, the client gives its user
      cross-signing keys (master, self-signing, user-signing; the upload answers user-interactive auth with the
      password when the homeserver asks, "uia" says whether it did) and signs its device with the self-signing key.
      When the user already has a master key this client did not make earlier in this process (a second device of
      the account), login fails: log that device in with cross_sign false. cross_sign false leaves the device
      unsigned, "a member on an unverified device".
      policy "element" (default): room keys go only to cross-signed devices, and decrypted messages from other
      devices are recorded as unreadable (see messages). policy "any": keys go to every device and every message
      counts, as before MSC4153.
  {"cmd": "create_room", "name": "…", "invite": ["@bot:localhost"], "history": "shared"}
      -> {"ok": true, "room": "!…"} (encrypted; history: the room's m.room.history_visibility, "shared" by default)
  {"cmd": "join", "room": "!…"}  {"cmd": "invite", "room": "!…", "user": "@…"}
  {"cmd": "send", "room": "!…", "text": "!help"}                    -> {"ok": true, "event": "$…"} (encrypted)
      With policy "element" the members' devices are checked first (a fresh /keys/query): cross-signed ones are
      marked verified, the others blacklisted, so the room key reaches the cross-signed ones only.
  {"cmd": "reply", "room": "!…", "event": "$…", "text": "!bookmark"}            -> {"ok": true, "event": "$…"}
      An encrypted rich reply to the event, with the classic fallback (body "> <@sender> original", an empty line,
      then text; formatted_body starting with <mx-reply>), the relation also in the cleartext (as nio and Element
      send it). The original's body comes from what this client read of it (decrypted), else from /event.
  {"cmd": "react", "room": "!…", "event": "$…", "key": "✅", "encrypted": true}  -> {"ok": true, "event": "$…"}
      An m.reaction annotation. In an encrypted room encrypted (as Element X sends reactions), the relation with its
      key also in the cleartext; "encrypted": false sends it plain, as Element Web does in every room.
  {"cmd": "messages", "room": "!…", "sender": "@bot…", "count": N, "timeout": 20, "contains": "text"?}
      -> {"ok": true, "messages": [{"event", "sender", "type", "decrypted", "content"}…]} once N messages from sender
         arrived (or one whose body contains the text); what arrived when the timeout passes otherwise.
         "type" is the nio event class (RoomMessageText, …; MegolmEvent when it could not be decrypted). With policy
         "element", a decrypted message gets "sender_device" and "secure": true when its device is cross-signed;
         one from any other device is recorded as {"type": "InsecureDevice", "decrypted": false, "insecure": true,
         "content": {}, "sender_device": "<id>"|null, "reason": "…"}.
  {"cmd": "device_trust", "user": "@x:localhost"}
      -> {"ok": true, "master_key": "<pub>"|null, "master_changed": bool,
          "devices": {"<device id>": {"cross_signed": bool, "reason": "<why not, or empty>"}}}
      computed from a fresh /keys/query. master_changed: the master key differs from the one first seen for the user
      in this process (the first one stays pinned; devices are judged against the current one).
  {"cmd": "history", "room": "!…", "sender": "@bot…", "wait": 20}
      -> {"ok": true, "events": [{"event", "encrypted", "decrypted", "type", "body", "content", "relates_to",
                                  "session_id", "index", "device_id", "secure", "error"?}…],
          "index_reuse": [[session_id, index, [event ids…]]…], "master_changed": bool}
      The room's whole history (/messages backwards to the start), oldest first: every message event (no state
      events) from sender. Encrypted ones are decrypted here with libolm from the client's inbound group sessions,
      which gives each Megolm message index; a session still missing is waited for up to `wait` seconds in all (room
      keys arrive as to-device messages). secure: the sending device is cross-signed by its owner. index_reuse:
      (session, index) pairs that more than one distinct event used. Plain events have encrypted false and their
      body. type and content are the event's as sent (decrypted: from the payload; null when unreadable);
      relates_to is the m.relates_to of the event as the homeserver has it (the cleartext copy of an encrypted one),
      so reactions (type m.reaction) and edits (rel_type m.replace) of the sender can be read.
  {"cmd": "reset_identity"}  -> {"ok": true, "master_key": "<new pub>", "uia": bool}
      New cross-signing keys for the user (master, self-signing, user-signing) replace the published ones, and this
      device is signed with the new self-signing key: what Element's "Reset identity" does, or what someone who has
      the password can do.
  {"cmd": "invite_with_history", "room": "!…", "user": "@carol:localhost"}
      -> {"ok": true, "shared": [session ids…], "withheld": [session ids…], "devices": N}
      Invites the user and hands them the room's past keys as MSC4268 (spec v1.19) defines it: the keys this client
      received flagged shared_history go into a bundle ({"room_keys": […], "withheld": […]}), the others are listed
      as withheld (m.history_not_shared); the bundle is encrypted as an attachment, uploaded, and its `file` sent in
      an Olm-encrypted m.room_key_bundle to each of the user's cross-signed devices.
  {"cmd": "accept_history", "room": "!…", "inviter": "@alice:localhost", "timeout": 20}
      -> {"ok": true, "imported": [session ids…], "withheld": [session ids…]}
      Waits for an m.room_key_bundle for the room from the inviter (Olm-encrypted, from a cross-signed device of
      theirs; bundles from anyone else are ignored, as the spec asks), downloads and decrypts it, checks its hash,
      and imports its keys for that room, so history (below) can read what was said before this user joined.
  {"cmd": "quit"}
Errors come back as {"ok": false, "error": "…"}. The store (keys, sessions) lives in the folder given as argv[1]
(made when missing).
The sync loop keeps going through homeserver restarts (requests are retried; the loop restarts after an error).
"""
import asyncio
import html
import json
import os
import sys
import time
import uuid
from urllib.parse import quote

import aiohttp
import olm
from nio import (AsyncClient, AsyncClientConfig, LocalProtocolError, LoginResponse, MegolmEvent, RoomKeyEvent,
                 RoomMessage, ToDeviceError, ToDeviceMessage)
from nio.crypto import InboundGroupSession
from nio.crypto.attachments import decrypt_attachment, encrypt_attachment
from nio.exceptions import OlmUnverifiedDeviceError

HOMESERVER = os.environ["AWFULBOT_SYNAPSE_URL"]
API = "/_matrix/client/v3"
MEGOLM = "m.megolm.v1.aes-sha2"
# MSC4268's to-device event, stable (spec v1.19) and unstable names.
KEY_BUNDLE_TYPES = ("m.room_key_bundle", "io.element.msc4268.room_key_bundle")


def log(message):
    sys.stderr.write(f"e2ee-human: {message}\n")
    sys.stderr.flush()


def canonical(value):
    """Matrix canonical JSON: sorted keys, no spaces, UTF-8 as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def signed_part(value):
    return {k: v for k, v in value.items() if k not in ("signatures", "unsigned")}


def signature_valid(value, user, key_id, public_key):
    """Whether value carries a valid ed25519 signature by public_key under signatures[user][key_id]."""
    signature = value.get("signatures", {}).get(user, {}).get(key_id)
    if not isinstance(signature, str):
        return False
    try:
        olm.ed25519_verify(public_key, canonical(signed_part(value)), signature)
        return True
    except olm.OlmVerifyError:
        return False


def cross_signing_key(value, user, usage):
    """The public key of a cross-signing key object, or (None, why not)."""
    if not isinstance(value, dict):
        return None, f"no {usage.replace('_', '-')} key"
    if value.get("user_id") != user or usage not in value.get("usage", []):
        return None, f"the {usage.replace('_', '-')} key has the wrong user or usage"
    keys = value.get("keys", {})
    if len(keys) != 1:
        return None, f"the {usage.replace('_', '-')} key has {len(keys)} keys instead of one"
    (key_id, public_key), = keys.items()
    # matrix-rust-sdk (Element) ignores keys in padded base64, so they count as no key here too.
    if key_id != f"ed25519:{public_key}" or "=" in key_id:
        return None, f"the {usage.replace('_', '-')} key's id {key_id} is malformed or padded"
    return public_key, ""


def new_signing_key():
    seed = os.urandom(32)
    return seed, olm.PkSigning(seed)


class Human:
    def __init__(self, store):
        self.store = store
        self.client = None
        self.http = None
        self.user = None
        self.password = None
        self.policy = "element"
        self.timeline = {}  # room -> [event dicts], in arrival order
        self.sync_task = None
        self.own_cross_signing = {}  # user -> {"master", "self_signing", "user_signing": (seed, PkSigning)}
        self.pinned_master = {}  # user -> the master key first seen (trust on first use)
        self.master_changed = {}  # user -> [(pinned, now)]
        self.trust = {}  # user -> the latest evaluation (see evaluate)
        self.trust_time = {}  # user -> monotonic time of that evaluation
        self.group_sessions = {}  # (room, sender key, session id, first index) -> olm.InboundGroupSession
        self.shared_history = {}  # (room, session id) -> the shared_history flag its m.room_key carried
        self.key_bundles = []  # {"sender", "sender_key", "content"} of each m.room_key_bundle received

    # --- Raw client-server API -------------------------------------------------------------------------------------

    async def api(self, method, path, body=None, query=None):
        """(status, JSON answer) of one request with the client's access token; retried while the server is away."""
        headers = {"Authorization": f"Bearer {self.client.access_token}"}
        for attempt in range(100):
            try:
                async with self.http.request(method, HOMESERVER + path, json=body, params=query,
                                             headers=headers) as answer:
                    return answer.status, await answer.json(content_type=None)
            except (aiohttp.ClientConnectionError, asyncio.TimeoutError):
                if attempt == 99:
                    raise
                await asyncio.sleep(0.5)

    async def keys_query(self, users):
        status, answer = await self.api("POST", f"{API}/keys/query",
                                        {"device_keys": {user: [] for user in users}, "timeout": 10000})
        if status != 200:
            raise RuntimeError(f"/keys/query answered {status}: {answer}")
        return answer

    # --- Cross-signing: trust -------------------------------------------------------------------------------------

    def evaluate(self, user, answer):
        """Which of user's devices are cross-signed by user, from a /keys/query answer. Pins the master key."""
        master_key = answer.get("master_keys", {}).get(user)
        master, why = cross_signing_key(master_key, user, "master")
        if master_key is None:
            why = "the user has no cross-signing keys (no master key)"
        changed = False
        if master:
            pinned = self.pinned_master.setdefault(user, master)
            if pinned != master:
                changed = True
                if (pinned, master) not in self.master_changed.setdefault(user, []):
                    self.master_changed[user].append((pinned, master))
                    log(f"the master key of {user} changed from {pinned} to {master}")
        self_signing, ssk_why = None, why
        if master:
            ssk = answer.get("self_signing_keys", {}).get(user)
            self_signing, ssk_why = cross_signing_key(ssk, user, "self_signing")
            if self_signing and not signature_valid(ssk, user, f"ed25519:{master}", master):
                self_signing, ssk_why = None, "the self-signing key is not signed by the master key"
        devices = {}
        for device_id, keys in answer.get("device_keys", {}).get(user, {}).items():
            ed25519 = keys.get("keys", {}).get(f"ed25519:{device_id}")
            curve25519 = keys.get("keys", {}).get(f"curve25519:{device_id}")
            reason = ""
            if keys.get("user_id") != user or keys.get("device_id") != device_id or not ed25519 or not curve25519:
                reason = "malformed device keys"
            elif not signature_valid(keys, user, f"ed25519:{device_id}", ed25519):
                reason = "the device keys are not signed by the device"
            elif not self_signing:
                reason = ssk_why
            elif not signature_valid(keys, user, f"ed25519:{self_signing}", self_signing):
                reason = "the device is not signed by its owner's self-signing key"
            devices[device_id] = {"cross_signed": not reason, "reason": reason,
                                  "ed25519": ed25519, "curve25519": curve25519}
        result = {"master_key": master, "master_changed": changed, "devices": devices}
        self.trust[user] = result
        self.trust_time[user] = time.monotonic()
        return result

    async def refresh_trust(self, users):
        answer = await self.keys_query(users)
        return {user: self.evaluate(user, answer) for user in users}

    async def device_trust(self, user):
        trust = (await self.refresh_trust([user]))[user]
        return {"master_key": trust["master_key"], "master_changed": trust["master_changed"],
                "devices": {d: {"cross_signed": v["cross_signed"], "reason": v["reason"]}
                            for d, v in trust["devices"].items()}}

    def device_by_curve(self, user, curve25519):
        for device_id, info in self.trust.get(user, {}).get("devices", {}).items():
            if info["curve25519"] == curve25519:
                return device_id, info
        return None, None

    async def sending_device(self, user, curve25519, ed25519=None):
        """(device id or None, secure, reason) for the device of user with this curve25519 key (and, when given, the
        ed25519 key the room key was claimed with). Asks the server again when the device is unknown or was not
        cross-signed at the last look (it may have been signed since)."""
        device_id, info = self.device_by_curve(user, curve25519)
        if info is None or (not info["cross_signed"] and time.monotonic() - self.trust_time.get(user, 0) > 1):
            await self.refresh_trust([user])
            device_id, info = self.device_by_curve(user, curve25519)
        if info is None:
            return None, False, "unknown device"
        if ed25519 is not None and info["ed25519"] != ed25519:
            return device_id, False, "the room key was claimed with another ed25519 key than the device's"
        return device_id, info["cross_signed"], info["reason"]

    # --- Cross-signing: our own identity --------------------------------------------------------------------------

    async def bootstrap_cross_signing(self, replace=False):
        """Gives the user cross-signing keys (unless this process made them already) and signs this device.
        replace: new keys even when the user has some (a reset, as "Reset identity" in Element does)."""
        user, device = self.user, self.client.device_id
        answer = await self.keys_query([user])
        existing, _ = cross_signing_key(answer.get("master_keys", {}).get(user), user, "master")
        mine = self.own_cross_signing.get(user)
        uia = False
        if existing and not replace and not (mine and mine["master"][1].public_key == existing):
            raise RuntimeError(
                f"{user} already has cross-signing keys (master {existing}) that this client did not make; "
                "log this device in with cross_sign false to leave it unsigned")
        if not existing or replace:
            mine = {usage: new_signing_key() for usage in ("master", "self_signing", "user_signing")}
            master_pub = mine["master"][1].public_key
            keys = {}
            for usage in ("master", "self_signing", "user_signing"):
                public = mine[usage][1].public_key
                key = {"user_id": user, "usage": [usage], "keys": {f"ed25519:{public}": public}}
                if usage != "master":
                    key["signatures"] = {user: {f"ed25519:{master_pub}": mine["master"][1].sign(canonical(key))}}
                keys[f"{usage}_key"] = key
            status, reply = await self.api("POST", f"{API}/keys/device_signing/upload", keys)
            if status == 401 and "session" in reply:
                uia = True
                keys["auth"] = {"type": "m.login.password", "session": reply["session"], "password": self.password,
                                "identifier": {"type": "m.id.user", "user": user[1:].split(":", 1)[0]}}
                status, reply = await self.api("POST", f"{API}/keys/device_signing/upload", keys)
            if status != 200:
                raise RuntimeError(f"/keys/device_signing/upload answered {status}: {reply}")
            self.own_cross_signing[user] = mine
            answer = await self.keys_query([user])
        # The self-signing key signs this device; the device signs the master key (how its own client trusts it).
        device_keys = answer.get("device_keys", {}).get(user, {}).get(device)
        if not device_keys:
            raise RuntimeError(f"the server does not list this device ({device}) after the key upload")
        self_signing = mine["self_signing"][1]
        device_signature = self_signing.sign(canonical(signed_part(device_keys)))
        signed_device = dict(signed_part(device_keys),
                             signatures={user: {f"ed25519:{self_signing.public_key}": device_signature}})
        master_key = answer.get("master_keys", {}).get(user)
        master_pub = mine["master"][1].public_key
        signed_master = dict(signed_part(master_key), signatures={user: {
            f"ed25519:{device}": self.client.olm.account.sign(canonical(signed_part(master_key)).decode("utf-8"))}})
        status, reply = await self.api("POST", f"{API}/keys/signatures/upload",
                                       {user: {device: signed_device, master_pub: signed_master}})
        if status != 200 or reply.get("failures"):
            raise RuntimeError(f"/keys/signatures/upload answered {status}: {reply}")
        if replace:
            self.pinned_master[user] = master_pub
        self.pinned_master.setdefault(user, master_pub)
        return master_pub, uia

    async def reset_identity(self):
        master, uia = await self.bootstrap_cross_signing(replace=True)
        return {"master_key": master, "uia": uia}

    # --- Commands -------------------------------------------------------------------------------------------------

    async def on_event(self, room, event):
        entry = {
            "event": event.event_id, "sender": event.sender, "type": type(event).__name__,
            "decrypted": bool(getattr(event, "decrypted", False)),
            "content": event.source.get("content", {}),
        }
        if isinstance(event, MegolmEvent):
            entry["content"] = {}
        elif getattr(event, "decrypted", False):
            # The event as it was before encryption (type, content) is what the test compares.
            entry["content"] = event.source.get("content", {})
            if self.policy == "element":
                session = self.client.olm.inbound_group_store.get(room.room_id, event.sender_key, event.session_id)
                try:
                    device, secure, reason = await self.sending_device(
                        event.sender, event.sender_key, session.ed25519 if session else None)
                except Exception as error:  # the homeserver is away: no verdict, so nothing shown
                    device, secure, reason = None, False, f"could not check the device: {error}"
                if secure:
                    entry["sender_device"], entry["secure"] = device, True
                else:
                    entry = {"event": event.event_id, "sender": event.sender, "type": "InsecureDevice",
                             "decrypted": False, "insecure": True, "content": {}, "sender_device": device,
                             "reason": reason}
        self.timeline.setdefault(room.room_id, []).append(entry)

    async def on_room_key(self, event):
        # nio keeps the room key's content (less the key itself) in source; the flag is not kept anywhere else.
        content = event.source.get("content", {})
        flag = content.get("shared_history", content.get("org.matrix.msc3061.shared_history")) is True
        self.shared_history[(content.get("room_id"), content.get("session_id"))] = flag

    def catch_key_bundles(self):
        """nio drops Olm-decrypted to-device events of types it does not know; keep the key bundles."""
        machine = self.client.olm
        if machine is None:
            return
        handle = machine._handle_olm_event

        def handle_with_bundles(sender, sender_key, payload):
            if payload.get("type") in KEY_BUNDLE_TYPES:
                self.key_bundles.append({"sender": sender, "sender_key": sender_key,
                                         "content": payload.get("content", {})})
                return None
            return handle(sender, sender_key, payload)

        machine._handle_olm_event = handle_with_bundles

    async def login(self, user, password, cross_sign=True, policy="element"):
        if policy not in ("element", "any"):
            raise ValueError(f"policy must be element or any, not {policy}")
        if self.client:
            await self.close()
        self.user, self.password, self.policy = user, password, policy
        # Short waits between retries, so the client is back soon after a homeserver restart.
        config = AsyncClientConfig(encryption_enabled=True, store_sync_tokens=True, max_timeout_retry_wait_time=2)
        self.client = AsyncClient(HOMESERVER, user, store_path=self.store, config=config)
        self.http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        answer = await self.client.login(password, device_name="e2ee-human")
        if not isinstance(answer, LoginResponse):
            raise RuntimeError(f"login failed: {answer}")
        self.client.add_event_callback(self.on_event, (RoomMessage, MegolmEvent))
        self.client.add_to_device_callback(self.on_room_key, RoomKeyEvent)
        self.catch_key_bundles()
        await self.client.sync(timeout=0, full_state=True)
        if self.client.should_upload_keys:
            await self.client.keys_upload()
        master, uia = None, False
        if cross_sign:
            try:
                master, uia = await self.bootstrap_cross_signing()
            except Exception:
                await self.client.logout()  # no half-made device stays behind
                await self.close()
                raise
        self.sync_task = asyncio.create_task(self.sync_loop())
        return {"device": self.client.device_id, "cross_signed": bool(cross_sign), "master_key": master, "uia": uia}

    async def sync_loop(self):
        while True:
            try:
                await self.client.sync_forever(timeout=1000)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log(f"sync stopped ({type(error).__name__}: {error}); syncing again")
                await asyncio.sleep(1)

    async def close(self):
        if self.sync_task:
            self.sync_task.cancel()
            try:
                await self.sync_task
            except (asyncio.CancelledError, Exception):
                pass
            self.sync_task = None
        if self.http:
            await self.http.close()
            self.http = None
        if self.client:
            await self.client.close()
            self.client = None

    async def wait_for_room(self, room, timeout=20):
        for _ in range(timeout * 10):
            if room in self.client.rooms:
                return
            await asyncio.sleep(0.1)
        raise RuntimeError(f"room {room} did not appear")

    async def create_room(self, name, invite, history="shared"):
        answer = await self.client.room_create(
            name=name, invite=invite, initial_state=[
                {"type": "m.room.encryption", "state_key": "", "content": {"algorithm": MEGOLM}},
                {"type": "m.room.history_visibility", "state_key": "", "content": {"history_visibility": history}}])
        await self.wait_for_room(answer.room_id)
        return {"room": answer.room_id}

    async def join(self, room):
        await self.client.join(room)
        await self.wait_for_room(room)
        return {}

    async def invite(self, room, user):
        await self.client.room_invite(room, user)
        return {}

    async def invite_with_history(self, room, user):
        await self.client.room_invite(room, user)
        shared, withheld, room_keys, withheld_entries = [], [], [], []
        for sender_key, sessions in self.client.olm.inbound_group_store[room].items():
            for session_id, session in sessions.items():
                if self.shared_history.get((room, session_id)):
                    shared.append(session_id)
                    room_keys.append({
                        "algorithm": MEGOLM, "room_id": room, "sender_key": sender_key, "session_id": session_id,
                        "session_key": session.export_session(session.first_known_index),
                        "sender_claimed_keys": {"ed25519": session.ed25519}})
                else:
                    withheld.append(session_id)
                    withheld_entries.append({
                        "algorithm": MEGOLM, "room_id": room, "sender_key": sender_key, "session_id": session_id,
                        "code": "m.history_not_shared", "reason": "The room's history was not shared."})
        ciphertext, keys = encrypt_attachment(json.dumps({"room_keys": room_keys,
                                                          "withheld": withheld_entries}).encode())
        async with self.http.post(f"{HOMESERVER}/_matrix/media/v3/upload", data=ciphertext,
                                  headers={"Authorization": f"Bearer {self.client.access_token}",
                                           "Content-Type": "application/octet-stream"}) as answer:
            uploaded = await answer.json(content_type=None)
            if answer.status != 200:
                raise RuntimeError(f"upload answered {answer.status}: {uploaded}")
        file = {"v": "v2", "url": uploaded["content_uri"], "key": keys["key"], "iv": keys["iv"],
                "hashes": keys["hashes"]}
        # Only the invitee's cross-signed devices get it, over Olm.
        trusted = {d for d, info in (await self.refresh_trust([user]))[user]["devices"].items() if info["cross_signed"]}
        self.client.olm.users_for_key_query.add(user)
        await self.nio_keys_query()
        missing = self.client.olm.get_missing_sessions([user])
        if missing:
            await self.client.keys_claim(missing)
        sent = 0
        for device in self.client.device_store.active_user_devices(user):
            if device.id not in trusted:
                continue
            session = self.client.olm.session_store.get(device.curve25519)
            if session is None:
                raise RuntimeError(f"no Olm session with {user}'s device {device.id}")
            content = self.client.olm._olm_encrypt(session, device, KEY_BUNDLE_TYPES[0],
                                                    {"room_id": room, "file": file})
            answer = await self.client.to_device(
                ToDeviceMessage("m.room.encrypted", user, device.id, content), tx_id=str(uuid.uuid4()))
            if isinstance(answer, ToDeviceError):
                raise RuntimeError(f"to-device send failed: {answer}")
            sent += 1
        return {"shared": shared, "withheld": withheld, "devices": sent}

    async def accept_history(self, room, inviter, timeout=20):
        deadline = time.monotonic() + float(timeout)
        while True:
            for bundle in self.key_bundles:
                if bundle["sender"] != inviter or bundle["content"].get("room_id") != room:
                    continue
                _, secure, reason = await self.sending_device(inviter, bundle["sender_key"])
                if not secure:
                    log(f"key bundle from an untrusted device of {inviter} ignored: {reason}")
                    continue
                return await self.import_bundle(room, bundle)
            if time.monotonic() > deadline:
                raise RuntimeError(f"no key bundle for {room} from {inviter}")
            await asyncio.sleep(0.2)

    async def import_bundle(self, room, bundle):
        file = bundle["content"]["file"]
        server, media = file["url"].removeprefix("mxc://").split("/", 1)
        async with self.http.get(f"{HOMESERVER}/_matrix/client/v1/media/download/{server}/{media}",
                                 headers={"Authorization": f"Bearer {self.client.access_token}"}) as answer:
            if answer.status != 200:
                raise RuntimeError(f"download answered {answer.status}")
            ciphertext = await answer.read()
        keys = json.loads(decrypt_attachment(ciphertext, file["key"]["k"], file["hashes"]["sha256"], file["iv"]))
        imported = []
        for entry in keys.get("room_keys", []):
            if entry.get("room_id") != room or entry.get("algorithm") != MEGOLM:
                continue
            session = InboundGroupSession.import_session(
                entry["session_key"], entry.get("sender_claimed_keys", {}).get("ed25519", ""), entry["sender_key"],
                room, [bundle["sender_key"]])
            self.client.olm.inbound_group_store.add(session)
            self.client.olm.store.save_inbound_group_session(session)
            imported.append(session.id)
        withheld = [entry["session_id"] for entry in keys.get("withheld", []) if entry.get("room_id") == room]
        return {"imported": imported, "withheld": withheld}

    async def nio_keys_query(self):
        if self.client.should_query_keys:
            try:
                await self.client.keys_query()
            except LocalProtocolError:  # the sync loop took the pending users first
                pass

    async def apply_policy(self, room):
        """Marks the room members' cross-signed devices verified and blacklists the rest in nio's store, so that
        nio shares the room key with the cross-signed ones only."""
        users = sorted(self.client.rooms[room].users)
        trust = await self.refresh_trust(users)
        # Devices nio does not know yet would get no key at all: let nio fetch them first.
        for user in users:
            known = {device.id for device in self.client.device_store.active_user_devices(user)}
            if user == self.user:
                known.add(self.client.device_id)  # nio keeps no entry for its own device
            if set(trust[user]["devices"]) - known:
                self.client.olm.users_for_key_query.add(user)
        await self.nio_keys_query()
        for user in users:
            for device in self.client.device_store.active_user_devices(user):
                if user == self.user and device.id == self.client.device_id:
                    continue
                info = trust[user]["devices"].get(device.id)
                secure = (info is not None and info["cross_signed"] and info["ed25519"] == device.ed25519
                          and info["curve25519"] == device.curve25519)
                # Only on a change: nio's trust files report every add as one, and each change starts a new
                # Megolm session.
                if secure and not self.client.olm.is_device_verified(device):
                    self.client.verify_device(device)
                elif not secure and not self.client.olm.is_device_blacklisted(device):
                    self.client.blacklist_device(device)

    async def send(self, room, text):
        return await self.send_event(room, "m.room.message", {"msgtype": "m.text", "body": text})

    async def send_with_clear_relation(self, room, text, event):
        """An encrypted line whose payload answers nothing, with "in reply to `event`" added to the cleartext after
        encryption: what a homeserver that rewrites the envelope makes of a member's line. A client may set any clear
        relation, so the bot receives exactly what such a rewrite produces."""
        return await self.send_event(room, "m.room.message", {"msgtype": "m.text", "body": text},
                                     clear_relation={"m.in_reply_to": {"event_id": event}})

    async def send_event(self, room, message_type, content, encrypt=True, clear_relation=None):
        """Sends content, encrypted in an encrypted room (an m.reaction only when encrypt is true: nio itself never
        encrypts reactions, like Element Web; Element X does). clear_relation: put in the cleartext only."""
        # Members and their devices must be current, or the key goes to too few devices.
        await self.client.joined_members(room)
        await self.nio_keys_query()
        encrypted_room = self.client.rooms[room].encrypted
        element = self.policy == "element" and encrypted_room
        for attempt in range(3):
            if element:
                await self.apply_policy(room)
            try:
                if (message_type == "m.reaction" and encrypt or clear_relation is not None) and encrypted_room:
                    return await self.send_encrypted(room, message_type, content, ignore_unverified=not element,
                                                     clear_relation=clear_relation)
                answer = await self.client.room_send(
                    room, message_type, content, ignore_unverified_devices=not element)
                break
            except OlmUnverifiedDeviceError:  # a device turned up between the check and the key sharing
                if attempt == 2:
                    raise
        if not hasattr(answer, "event_id"):
            raise RuntimeError(f"send failed: {answer}")
        return {"event": answer.event_id}

    async def send_encrypted(self, room, message_type, content, ignore_unverified, clear_relation=None):
        """What room_send does for a message, for any event type: share the room key, encrypt (nio copies the
        relation into the cleartext), send."""
        if self.client.olm.should_share_group_session(room):
            await self.client.share_group_session(room, ignore_unverified_devices=ignore_unverified)
        event_type, encrypted = self.client.encrypt(room, message_type, content)
        if clear_relation is not None:
            encrypted["m.relates_to"] = clear_relation
        path = f"{API}/rooms/{quote(room, safe='')}/send/{quote(event_type, safe='')}/{uuid.uuid4()}"
        status, answer = await self.api("PUT", path, encrypted)
        if status != 200:
            raise RuntimeError(f"send of {message_type} answered {status}: {answer}")
        return {"event": answer["event_id"]}

    async def original(self, room, event):
        """(sender, body) of an event as this client read it (decrypted), else as the homeserver has it."""
        for entry in self.timeline.get(room, []):
            if entry["event"] == event and entry["content"].get("body") is not None:
                return entry["sender"], entry["content"]["body"]
        status, answer = await self.api("GET", f"{API}/rooms/{quote(room, safe='')}/event/{quote(event, safe='')}")
        if status != 200:
            raise RuntimeError(f"/event answered {status}: {answer}")
        return answer.get("sender", ""), answer.get("content", {}).get("body", "")

    async def reply(self, room, event, text):
        sender, body = await self.original(room, event)
        lines = body.split("\n")
        quoted = [f"> <{sender}> {lines[0]}"] + [f"> {line}" for line in lines[1:]]
        link = f"https://matrix.to/#/{room}/{event}"
        formatted = (f'<mx-reply><blockquote><a href="{html.escape(link)}">In reply to</a> '
                     f'<a href="https://matrix.to/#/{html.escape(sender)}">{html.escape(sender)}</a><br>'
                     + "<br>".join(html.escape(line) for line in lines) + "</blockquote></mx-reply>" + html.escape(text))
        content = {"msgtype": "m.text", "body": "\n".join(quoted) + "\n\n" + text,
                   "format": "org.matrix.custom.html", "formatted_body": formatted,
                   "m.relates_to": {"m.in_reply_to": {"event_id": event}}}
        return await self.send_event(room, "m.room.message", content)

    async def react(self, room, event, key, encrypted=True):
        content = {"m.relates_to": {"rel_type": "m.annotation", "event_id": event, "key": key}}
        return await self.send_event(room, "m.reaction", content, encrypt=encrypted)

    async def messages(self, room, sender, count, timeout=20, contains=None):
        """Waits for `count` messages from sender (or one whose decrypted body contains `contains`)."""
        def done(mine):
            if contains is not None:
                return any(contains in str(m["content"].get("body", "")) for m in mine)
            return len(mine) >= count
        mine = []
        for _ in range(max(int(timeout * 10), 1)):
            mine = [m for m in self.timeline.get(room, []) if m["sender"] == sender]
            if done(mine):
                break
            await asyncio.sleep(0.1)
        return {"messages": mine}

    # --- History --------------------------------------------------------------------------------------------------

    async def room_history(self, room):
        """Every event of the room, oldest first."""
        events, start = [], None
        while True:
            query = {"dir": "b", "limit": "1000"}
            if start:
                query["from"] = start
            status, page = await self.api("GET", f"{API}/rooms/{room}/messages", query=query)
            if status != 200:
                raise RuntimeError(f"/messages answered {status}: {page}")
            events.extend(page.get("chunk", []))
            if not page.get("chunk") or not page.get("end"):
                return list(reversed(events))
            start = page["end"]

    def inbound_session(self, room, sender_key, session_id):
        """nio's inbound group session, by sender key when the event names one, else by session id alone."""
        store = self.client.olm.inbound_group_store
        if sender_key:
            return store.get(room, sender_key, session_id)
        for sessions in store[room].values():
            if session_id in sessions:
                return sessions[session_id]
        return None

    def megolm_decrypt(self, room, session, ciphertext):
        """(plaintext, message index) with libolm, from a copy of nio's session exported at its first index."""
        key = (room, session.sender_key, session.id, session.first_known_index)
        if key not in self.group_sessions:
            exported = session.export_session(session.first_known_index)
            self.group_sessions[key] = olm.InboundGroupSession.import_session(exported)
        return self.group_sessions[key].decrypt(ciphertext)

    async def history(self, room, sender, wait=20):
        events = [e for e in await self.room_history(room) if e.get("sender") == sender and "state_key" not in e]
        await self.refresh_trust([sender])
        deadline = time.monotonic() + float(wait)
        results, uses = [], {}
        for event in events:
            content = event.get("content", {})
            if event.get("type") != "m.room.encrypted":
                results.append({"event": event["event_id"], "encrypted": False, "decrypted": False,
                                "type": event.get("type"), "body": content.get("body"), "content": content,
                                "relates_to": content.get("m.relates_to"), "session_id": None,
                                "index": None, "device_id": None, "secure": False})
                continue
            result = {"event": event["event_id"], "encrypted": True, "decrypted": False, "type": None, "body": None,
                      "content": None, "relates_to": content.get("m.relates_to"),
                      "session_id": content.get("session_id"), "index": None,
                      "device_id": content.get("device_id"), "secure": False}
            results.append(result)
            if content.get("algorithm") != "m.megolm.v1.aes-sha2":
                result["error"] = f"algorithm {content.get('algorithm')}"
                continue
            session = self.inbound_session(room, content.get("sender_key"), content.get("session_id"))
            while session is None and time.monotonic() < deadline:
                await asyncio.sleep(0.2)  # the room key may still be on its way as a to-device message
                session = self.inbound_session(room, content.get("sender_key"), content.get("session_id"))
            if session is None:
                result["error"] = "no room key for this session"
                continue
            try:
                plaintext, index = self.megolm_decrypt(room, session, content.get("ciphertext", ""))
                payload = json.loads(plaintext)
            except (olm.OlmGroupSessionError, ValueError) as error:
                result["error"] = f"decryption failed: {error}"
                continue
            result["index"] = index
            uses.setdefault((session.id, index), set()).add(event["event_id"])
            if payload.get("room_id") != room:
                result["error"] = f"the payload names room {payload.get('room_id')}"
                continue
            result["decrypted"] = True
            result["type"] = payload.get("type")
            result["body"] = payload.get("content", {}).get("body")
            result["content"] = payload.get("content", {})
            device, secure, reason = await self.sending_device(sender, session.sender_key, session.ed25519)
            if result["device_id"] and device and result["device_id"] != device:
                secure, reason = False, f"the event names device {result['device_id']}, its key is {device}'s"
            result["device_id"] = result["device_id"] or device
            result["secure"] = secure
            if not secure:
                result["reason"] = reason
        reuse = [[session_id, index, sorted(ids)] for (session_id, index), ids in sorted(uses.items())
                 if len(ids) > 1]
        return {"events": results, "index_reuse": reuse, "master_changed": bool(self.master_changed.get(sender))}


async def main():
    os.makedirs(sys.argv[1], exist_ok=True)
    human = Human(sys.argv[1])
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            break
        request = json.loads(line)
        command = request.pop("cmd")
        if command == "quit":
            break
        try:
            if command.startswith("_") or command not in COMMANDS:
                raise ValueError(f"unknown command {command}")
            result = await getattr(human, command)(**request)
            reply = {"ok": True, **result}
        except Exception as error:  # reported to the test, which fails with it
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    await human.close()


COMMANDS = {"login", "create_room", "join", "invite", "send", "send_with_clear_relation", "reply", "react", "messages",
            "device_trust",
            "history", "reset_identity", "invite_with_history", "accept_history"}

asyncio.run(main())
