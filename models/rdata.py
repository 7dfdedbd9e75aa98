"""Read character vectors out of an installed R package's lazy-load data
(data/Rdata.rdx + data/Rdata.rdb), without R.

Only the parts of R's serialization format (version 2 and 3, XDR) that
plain data sets use are implemented: NULL, symbols, pairlists, character,
logical, integer, double and generic vectors, attributes and references.
"""

import bz2
import gzip
import lzma
import struct
import zlib

NILVALUE, REFSXP = 254, 255
SYMSXP, LISTSXP, CHARSXP, LGLSXP, INTSXP, REALSXP, STRSXP, VECSXP = 1, 2, 9, 10, 13, 14, 16, 19
EMPTYENV, BASEENV, GLOBALENV, UNBOUND, MISSINGARG, BASENAMESPACE = 242, 241, 253, 252, 251, 247


class Unserializer:
    def __init__(self, data):
        self.b = data
        self.off = 0
        self.refs = []

    def take(self, n):
        if self.off + n > len(self.b):
            raise ValueError("R data truncated at byte %d" % self.off)
        p = self.b[self.off:self.off + n]
        self.off += n
        return p

    def int(self):
        return struct.unpack(">i", self.take(4))[0]

    def run(self):
        if self.take(2) != b"X\n":
            raise ValueError("not an XDR R serialization")
        version = self.int()
        self.int()  # writer's R version
        self.int()  # minimal reader version
        if version == 3:
            n = self.int()
            self.take(n)  # native encoding name
        elif version != 2:
            raise ValueError("R serialization version %d is not supported" % version)
        return self.item()

    def item(self):
        flags = self.int()
        typ = flags & 0xFF
        has_attr = flags & (1 << 9)
        has_tag = flags & (1 << 10)
        if typ == NILVALUE or typ in (EMPTYENV, BASEENV, GLOBALENV, UNBOUND, MISSINGARG, BASENAMESPACE):
            return None
        if typ == REFSXP:
            return self.refs[(flags >> 8) - 1]
        if typ == SYMSXP:
            name = self.item()  # a CHARSXP
            self.refs.append(name)
            return name
        if typ == LISTSXP:
            attr = self.item() if has_attr else None
            tag = self.item() if has_tag else None
            car = self.item()
            cdr = self.item()
            out = [(tag, car)]
            if isinstance(cdr, list) and cdr and isinstance(cdr[0], tuple):
                out += cdr
            return out
        if typ == CHARSXP:
            n = self.int()
            if n == -1:
                return None
            return self.take(n).decode("utf-8", errors="replace")
        if typ in (LGLSXP, INTSXP):
            n = self.int()
            val = list(struct.unpack(">%di" % n, self.take(4 * n)))
        elif typ == REALSXP:
            n = self.int()
            val = list(struct.unpack(">%dd" % n, self.take(8 * n)))
        elif typ == STRSXP:
            n = self.int()
            val = [self.item() for _ in range(n)]
        elif typ == VECSXP:
            n = self.int()
            val = [self.item() for _ in range(n)]
        else:
            raise ValueError("R type %d is not supported" % typ)
        if has_attr:
            attrs = dict(self.item())
            names = attrs.get("names")
            if names is not None and typ == VECSXP:
                return dict(zip(names, val))
        return val


def unserialize(data):
    return Unserializer(data).run()


def decompress_chunk(chunk):
    """Decompress one object of an .rdb file (R's R_decompress1/2/3)."""
    (n,) = struct.unpack(">I", chunk[:4])
    kind = chunk[4:5]
    if kind == b"Z":
        out = zlib.decompress(chunk[5:])
    elif kind == b"2":
        out = bz2.decompress(chunk[5:])
    elif kind == b"X":
        out = lzma.decompress(chunk[5:])
    elif kind == b"0":
        out = chunk[5:]
    else:
        out = zlib.decompress(chunk[4:])
    if len(out) != n:
        raise ValueError("R object decompressed to %d bytes, expected %d" % (len(out), n))
    return out


def lazyload(prefix):
    """Return {name: value} for every object in prefix.rdx / prefix.rdb."""
    with gzip.open(prefix + ".rdx") as f:
        index = unserialize(f.read())
    with open(prefix + ".rdb", "rb") as f:
        rdb = f.read()
    out = {}
    for name, (off, size) in index["variables"].items():
        off, size = int(off), int(size)
        out[name] = unserialize(decompress_chunk(rdb[off:off + size]))
    return out
