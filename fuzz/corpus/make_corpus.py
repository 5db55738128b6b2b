#!/usr/bin/env python3
"""Write the hand-made inputs of the fuzz corpus (run once; the .bin files
are what the tests replay).  The byte format is described at the top of
fuzz/fuzz_ops.c; each helper below encodes one operation."""

import os
import struct

# op_table[] index of each operation (fuzz/fuzz_ops.c)
KMALLOC, KZALLOC, KREALLOC, FREE, STORM = 0, 4, 5, 7, 11
CREATE, CACHE_ALLOC, BULK_ALLOC, BULK_FREE, SHRINK, DESTROY = 12, 13, 16, 17, 18, 19
PAGES, EXACT, SPLIT, CHECK, DRAIN, HOG = 20, 23, 24, 25, 26, 27
VMALLOC = 31

KERNEL, DMA32, DMA, ATOMIC, MEMALLOC = 0x00, 0x06, 0x07, 0x08, 0xf0
MAX = 4 << 20   # KMALLOC_MAX_SIZE


def op(index, v=0):
    return bytes([v << 5 | index])


def size(n):
    """Class byte and 16-bit value that decode_size() turns into n."""
    if n == 0:
        return struct.pack('<BH', 0x00, 0)
    if n <= 256:
        return struct.pack('<BH', 0x01, n - 1)
    if n <= 8192:
        return struct.pack('<BH', 0x03, n - 1)
    if n <= 16384:
        return struct.pack('<BH', 0x05, n - 1)
    if n <= 8193 + 0xffff:
        return struct.pack('<BH', 0x07, n - 8193)
    assert MAX - 8192 <= n < MAX + 8192
    return struct.pack('<BH', 0xff, n - (MAX - 8192))


def b(*values):
    return bytes(values)


def kmalloc(slot, n, gfp=KERNEL, v=0):
    return op(KMALLOC, v) + b(slot) + size(n) + b(gfp)


def kzalloc(slot, n, gfp=KERNEL, v=0, count=0):
    return op(KZALLOC, v) + b(slot) + size(n) + b(gfp) + (b(count) if 4 <= v <= 6 else b())


def krealloc(slot, n, gfp=KERNEL, v=0):
    return op(KREALLOC, v) + b(slot) + size(n) + b(gfp)


def free(slot, v=0):
    return op(FREE, v) + b(slot)


def vmalloc(slot, n, v=0, gfp=KERNEL):
    """v 0-3: vmalloc of n * (1 + 21 * v) bytes, 4: vzalloc, 5-6: kvmalloc,
    7: vmalloc(0), which must fail."""
    return op(VMALLOC, v) + b(slot) + size(n) + b(gfp)


def create(cache, n, align=0, flags=0):
    return op(CREATE) + b(cache) + size(n) + b(align, flags)


def cache_alloc(cache, slot, gfp=KERNEL, v=0):
    return op(CACHE_ALLOC, v) + b(cache, slot, gfp)


def bulk_alloc(cache, slot, nr, gfp=KERNEL, v=0):
    return op(BULK_ALLOC, v) + b(cache, slot, nr - 1, gfp)


def bulk_free(cache, slot, nr):
    return op(BULK_FREE) + b(cache, slot, nr - 1)


def shrink(which):
    return op(SHRINK) + b(which)


def destroy(cache, v=0):
    return op(DESTROY, v) + b(cache)


def pages(slot, order, comp=False, zero=False, gfp=KERNEL, v=0, raw=None):
    o = raw if raw is not None else order | (8 if comp else 0) | (16 if zero else 0)
    return op(PAGES, v) + b(slot, o, gfp)


def exact(slot, n, gfp=KERNEL, v=0):
    return op(EXACT, v) + b(slot) + struct.pack('<H', n - 1) + b(gfp)


def split(slot):
    return op(SPLIT) + b(slot)


def check(slot, v=0):
    return op(CHECK, v) + b(slot)


def drain(v=0):
    return op(DRAIN, v)


def hog(slack, v=0):
    return op(HOG, v) + b(slack)


def storm(n, count, cache=0, v=0, gfp=KERNEL):
    return op(STORM, v) + b(cache) + size(n) + b(count - 1, gfp)


# Align byte: low nibble 6 + k gives 1 << k; high nibble 13 PAGE_SIZE,
# 14 24 (invalid), 15 8192 (invalid). Flags byte: 1 HWCACHE_ALIGN,
# 6 CACHE_DMA, 8 TYPESAFE_BY_RCU, 16 ctor, 0xe0 an unknown flag.
ALIGN = {0: 0x00, 8: 0x09, 64: 0x0c, 512: 0x0f, 4096: 0xd0, 24: 0xe0, 8192: 0xf0}
HWCACHE, CDMA, RCU, CTOR, BADFLAG = 0x01, 0x06, 0x08, 0x10, 0xe0

CORPUS = {
    # every kmalloc size class and boundary, zeroing, resizing, freeing
    'kmalloc': b''.join([
        kmalloc(0, 0), kmalloc(1, 1), kmalloc(2, 8), kmalloc(3, 96),
        kmalloc(4, 192), kmalloc(5, 193), kmalloc(6, 4096),
        kmalloc(7, 8192), kmalloc(8, 8193), kmalloc(9, 65536),
        kmalloc(10, 100, DMA), kmalloc(11, 5000, DMA, v=1),
        kmalloc(12, MAX), kmalloc(13, MAX + 1),
        kzalloc(14, 700), kzalloc(15, 20000, ATOMIC), kzalloc(16, 300, v=4, count=9),
        kzalloc(17, 0, v=7),
        krealloc(1, 5), krealloc(1, 300), krealloc(1, 9000), krealloc(1, 40),
        krealloc(20, 64), krealloc(0, 33), krealloc(2, 0, v=7),
        check(0, v=7),
        free(1), free(3, v=7), free(4), free(8, v=7), free(12),
    ]),
    # private caches: ctor, alignment, flags, bulk, shrink, destroy
    'caches': b''.join([
        create(0, 256, ALIGN[0], CTOR), create(1, 100, ALIGN[64], HWCACHE),
        create(2, 3000, ALIGN[8], RCU | CTOR), create(3, 24, ALIGN[0], CDMA),
        cache_alloc(0, 0), cache_alloc(0, 1, v=1), cache_alloc(1, 2, v=6),
        cache_alloc(2, 3), cache_alloc(3, 4), cache_alloc(3, 5, v=7),
        bulk_alloc(0, 10, 20), bulk_alloc(1, 30, 8, v=1), bulk_alloc(2, 40, 5),
        free(0), free(11), bulk_free(0, 0, 32), bulk_free(1, 30, 3),
        shrink(0), shrink(1), shrink(0x80 | 5), shrink(0x90 | 2),
        cache_alloc(0, 12), check(12), destroy(0), destroy(1), destroy(2),
        destroy(3), create(0, 8192, ALIGN[4096], 0), cache_alloc(0, 0),
        shrink(0), destroy(0),
    ]),
    # destroying a cache that has objects is refused (and reported)
    'cache-destroy-live': b''.join([
        create(1, 200, ALIGN[0], CTOR), cache_alloc(1, 7), cache_alloc(1, 8),
        destroy(1, v=7), cache_alloc(1, 9), destroy(1, v=7), free(7),
        shrink(1), destroy(1),
    ]),
    # kmem_cache_create must reject these
    'cache-invalid': b''.join([
        create(0, 0), create(1, 64, ALIGN[24]), create(2, 64, ALIGN[8192]),
        create(3, 64, 0, BADFLAG), create(0, MAX + 1), create(1, MAX, 0, 0),
        cache_alloc(0, 0), cache_alloc(1, 1), destroy(1),
    ]),
    # the page allocator: every order, compound, zeroed, zones, exact, split
    'pages': b''.join([
        pages(0, 0), pages(1, 1, comp=True), pages(2, 2, zero=True),
        pages(3, 3, comp=True, zero=True), pages(4, 4, gfp=DMA),
        pages(5, 5, gfp=DMA32), pages(6, 3, v=5), pages(7, 2, v=6),
        pages(8, 0, v=7), pages(9, 0, raw=0xf8), pages(10, 0, raw=0xf9),
        exact(11, 5 * 4096 + 1), exact(12, 3 * 4096, v=2), exact(13, 1, gfp=DMA),
        split(5), split(5), split(5), split(1), split(7), split(7),
        check(0, v=7), drain(), free(0), free(1), free(5), free(7),
        free(11), drain(v=7),
    ]),
    # little free memory: failures, pfmemalloc reserve, caches under pressure
    'pressure': b''.join([
        hog(0x40), kmalloc(0, 3000), kmalloc(1, 3000, MEMALLOC),
        storm(512, 200, gfp=ATOMIC), hog(0, v=1), kmalloc(2, 100),
        kmalloc(3, 100, MEMALLOC), kmalloc(9, 100), pages(4, 0, gfp=MEMALLOC),
        pages(5, 3, gfp=MEMALLOC), create(0, 700, 0, CTOR),
        cache_alloc(0, 6, MEMALLOC), hog(0, v=2), kmalloc(7, 64, MEMALLOC),
        hog(0, v=4), kmalloc(10, 100), kmalloc(11, 100, MEMALLOC),
        create(1, 64), cache_alloc(1, 8), storm(64, 250, cache=1, v=1),
        free(1), free(3),
    ]),
    # vmalloc areas from a byte to 3.8 MiB, vzalloc, kvmalloc both ways,
    # vmalloc(0); freed by kfree-ing ops on their slots and at the end
    'vmalloc': b''.join([
        vmalloc(0, 1), vmalloc(1, 5000, v=1), vmalloc(2, 60000, v=3),
        vmalloc(3, 16384, v=4), vmalloc(4, 100, v=5), vmalloc(5, 8192, v=6),
        vmalloc(6, 0, v=7), check(0), check(2), free(1), kmalloc(2, 64),
        vmalloc(7, 73000, v=5), check(7), free(3), free(4), drain(7),
    ]),
    # many objects at once: per-CPU arrays overflow into the shared array
    'storm': b''.join([
        storm(32, 256), storm(1024, 200, v=2), storm(2048, 100, v=4),
        storm(96, 255, v=6), create(2, 48, 0, CTOR), storm(0, 256, cache=2, v=1),
        storm(0, 256, cache=2, v=3), storm(0, 99, cache=2, v=5),
        storm(0, 77, cache=2, v=7), storm(9000, 30), destroy(2),
        create(3, 5000), storm(0, 100, cache=3, v=1), storm(0, 100, cache=3, v=3),
    ]),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for name, data in CORPUS.items():
        with open(os.path.join(here, name + '.bin'), 'wb') as f:
            f.write(data)
        print('%s.bin: %d bytes' % (name, len(data)))


if __name__ == '__main__':
    main()
