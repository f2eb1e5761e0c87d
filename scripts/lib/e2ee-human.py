#!/usr/bin/env python3
"""A person with a real end-to-end encrypting Matrix client (matrix-nio + libolm), for the Matrix encryption tests.

Driven over stdin/stdout, one JSON object per line each way, by Tests/TestKit/MatrixE2EEHuman.swift:
  {"cmd": "login", "user": "@u:localhost", "password": "…"}          -> {"ok": true, "device": "…"}
  {"cmd": "create_room", "name": "…", "invite": ["@bot:localhost"]}  -> {"ok": true, "room": "!…"} (encrypted)
  {"cmd": "join", "room": "!…"}  {"cmd": "invite", "room": "!…", "user": "@…"}
  {"cmd": "send", "room": "!…", "text": "!help"}                    -> {"ok": true, "event": "$…"} (encrypted)
  {"cmd": "messages", "room": "!…", "sender": "@bot…", "count": N, "timeout": 20, "contains": "text"?}
      -> {"ok": true, "messages": [{"event", "type", "decrypted", "content"}…]} once N messages from sender arrived
         (or one whose body contains the text); what arrived when the timeout passes otherwise
  {"cmd": "quit"}
Errors come back as {"ok": false, "error": "…"}. The store (keys, sessions) lives in the folder given as argv[1].
"""
import asyncio
import json
import os
import sys

from nio import AsyncClient, AsyncClientConfig, LoginResponse, MegolmEvent, RoomMessage

HOMESERVER = os.environ["AWFULBOT_SYNAPSE_URL"]


class Human:
    def __init__(self, store):
        self.store = store
        self.client = None
        self.timeline = {}  # room -> [event dicts], in arrival order
        self.sync_task = None

    def on_event(self, room, event):
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
        self.timeline.setdefault(room.room_id, []).append(entry)

    async def login(self, user, password):
        config = AsyncClientConfig(encryption_enabled=True, store_sync_tokens=True)
        self.client = AsyncClient(HOMESERVER, user, store_path=self.store, config=config)
        answer = await self.client.login(password, device_name="e2ee-human")
        if not isinstance(answer, LoginResponse):
            raise RuntimeError(f"login failed: {answer}")
        self.client.add_event_callback(self.on_event, (RoomMessage, MegolmEvent))
        await self.client.sync(timeout=0, full_state=True)
        if self.client.should_upload_keys:
            await self.client.keys_upload()
        self.sync_task = asyncio.create_task(self.client.sync_forever(timeout=1000))
        return {"device": self.client.device_id}

    async def wait_for_room(self, room, timeout=20):
        for _ in range(timeout * 10):
            if room in self.client.rooms:
                return
            await asyncio.sleep(0.1)
        raise RuntimeError(f"room {room} did not appear")

    async def create_room(self, name, invite):
        answer = await self.client.room_create(
            name=name, invite=invite, initial_state=[{
                "type": "m.room.encryption", "state_key": "",
                "content": {"algorithm": "m.megolm.v1.aes-sha2"}}])
        await self.wait_for_room(answer.room_id)
        return {"room": answer.room_id}

    async def join(self, room):
        await self.client.join(room)
        await self.wait_for_room(room)
        return {}

    async def invite(self, room, user):
        await self.client.room_invite(room, user)
        return {}

    async def send(self, room, text):
        # Members and their devices must be current, or the key goes to too few devices.
        await self.client.joined_members(room)
        if self.client.should_query_keys:
            await self.client.keys_query()
        answer = await self.client.room_send(
            room, "m.room.message", {"msgtype": "m.text", "body": text}, ignore_unverified_devices=True)
        if not hasattr(answer, "event_id"):
            raise RuntimeError(f"send failed: {answer}")
        return {"event": answer.event_id}

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


async def main():
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
            result = await getattr(human, command)(**request)
            reply = {"ok": True, **result}
        except Exception as error:  # reported to the test, which fails with it
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    if human.client:
        if human.sync_task:
            human.sync_task.cancel()
        await human.client.close()


asyncio.run(main())
