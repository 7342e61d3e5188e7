"""Length-prefixed messages in network byte order, split from a stream."""
import struct
import json

FRAME = struct.Struct("!BHI")  # type, flags, payload length
TYPES = {1: "hello", 2: "data", 3: "bye"}


def encode(kind: int, flags: int, payload: dict) -> bytes:
    body = json.dumps(payload, separators=(",", ":")).encode()
    return FRAME.pack(kind, flags, len(body)) + body


def decode_stream(stream: bytes):
    messages, pos = [], 0
    while pos + FRAME.size <= len(stream):
        kind, flags, length = FRAME.unpack_from(stream, pos)
        end = pos + FRAME.size + length
        if end > len(stream):
            break  # incomplete frame: wait for more bytes
        payload = json.loads(stream[pos + FRAME.size:end])
        messages.append((TYPES.get(kind, "?"), flags, payload))
        pos = end
    return messages, stream[pos:]


stream = encode(1, 0, {"client": "agent-7"}) + encode(2, 0x8001, {"values": [1, 2, 3]}) + encode(3, 0, {})
print("frame header:", FRAME.size, "bytes; stream:", len(stream), "bytes")
print(stream[:FRAME.size].hex(" "))

cut = len(stream) - 3
messages, rest = decode_stream(stream[:cut])
for m in messages:
    print(m)
print("left over:", len(rest), "bytes")
messages, rest = decode_stream(rest + stream[cut:])
print(messages, rest)

# '!' and '>' are the same order; '<' reverses the bytes.
print(struct.pack("!H", 0x1234) == struct.pack(">H", 0x1234), struct.pack("<H", 0x1234).hex())
print(struct.unpack("!I", bytes([192, 168, 1, 20])), ".".join(str(b) for b in struct.pack("!I", 3232235796)))
