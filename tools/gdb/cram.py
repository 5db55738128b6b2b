# SPDX-License-Identifier: GPL-2.0
"""gdb helpers for cram: the kernel's state read from a stopped machine.

Loaded by gdb (``source tools/gdb/cram.py``, or through the auto-load
file build/kernel.elf-gdb.py that the build writes), these commands read
memory only: no kernel function is called and no lock is taken, so they
work on a kernel that is wedged, panicked or stopped at a breakpoint.

  cram-dmesg            the printk ring buffer (kernel/printk.c)
  cram-slabinfo         the shell's slabinfo (mm/slab_common.c)
  cram-buddyinfo        the shell's buddyinfo (mm/vmstat.c)
  cram-vmallocinfo      the shell's vmallocinfo (mm/vmalloc.c)
  cram-page ADDR|PFN    one struct page decoded (mm/mm_types.h)
  cram-percpu VAR CPU   a per-CPU variable's value on CPU: (VAR)[CPU]

slabinfo, buddyinfo and vmallocinfo print the lines the shell prints, so
the two can be compared (tools/testing/gdb_check.py does).
Documentation/dev-tools/gdb.md describes them.
"""

import struct

import gdb

PAGE_SHIFT = 12
# The top bits of page->flags (mm/mm.h).
ZONES_PGSHIFT = 60
ZONES_MASK = 0x3
NODES_PGSHIFT = 56
NODES_MASK = 0xf
# Values below this are pfns, not addresses, to cram-page.
PFN_LIMIT = 1 << 40
ULONG_MASK = (1 << 64) - 1


# -- reading the kernel ----------------------------------------------------


def lookup(name, source=None):
    """The variable `name`, preferring the static one of file `source`."""
    if source:
        try:
            return gdb.parse_and_eval("'%s'::%s" % (source, name))
        except gdb.error:
            pass
    try:
        return gdb.parse_and_eval(name)
    except gdb.error as err:
        raise gdb.GdbError('cram: no symbol %s in this kernel (%s)' % (name, err))


def ulong(value):
    return int(value) & ULONG_MASK


def field_offset(type_name, field):
    """offsetof(type_name, field), for container_of()."""
    for f in gdb.lookup_type(type_name).fields():
        if f.name == field:
            return f.bitpos // 8
    raise gdb.GdbError('cram: %s has no field %s' % (type_name, field))


def list_entries(head, type_name, member):
    """The entries of a list_head `head` (a gdb.Value), as pointers."""
    ptr_type = gdb.lookup_type(type_name).pointer()
    offset = field_offset(type_name, member)
    first = ulong(head.address)
    node = head['next']
    seen = 0
    while ulong(node) != first:
        if not ulong(node):
            raise gdb.GdbError('cram: NULL in the list at %#x' % first)
        seen += 1
        if seen > 1000000:
            raise gdb.GdbError('cram: the list at %#x does not end' % first)
        yield gdb.Value(ulong(node) - offset).cast(ptr_type)
        node = node['next']


def read_bytes(address, length):
    return bytes(gdb.selected_inferior().read_memory(address, length))


def array_length(value):
    low, high = value.type.strip_typedefs().range()
    return high - low + 1


def nr_cpus():
    """nr_cpu_ids: one past the highest possible CPU."""
    for name, source in (('nr_cpu_ids', None), ('nr_online', 'smpboot.c')):
        try:
            return int(gdb.parse_and_eval("'%s'::%s" % (source, name)
                                          if source else name))
        except gdb.error:
            continue
    return nr_cpus_max()


def nr_cpus_max():
    """NR_CPUS, the length of an array sized by it."""
    return array_length(lookup('x86_hardirq_count'))


class Kallsyms:
    """The kernel's own symbol table (kernel/kallsyms.c), read once: %pS
    is printed exactly as the kernel prints it."""

    table = None

    @classmethod
    def load(cls):
        if cls.table is None:
            count = int(lookup('kallsyms_num_syms'))
            base = ulong(lookup('start_kernel').address)

            def words(name, fmt):
                data = read_bytes(ulong(lookup(name).address), 4 * count)
                return struct.unpack('<%d%s' % (count, fmt), data)

            offsets = words('kallsyms_offsets', 'i')
            sizes = words('kallsyms_sizes', 'I')
            name_offsets = words('kallsyms_name_offsets', 'I')
            names_addr = ulong(lookup('kallsyms_names').address)
            end = max(name_offsets) + 256 if count else 0
            names = read_bytes(names_addr, end) if count else b''
            cls.table = [((base + offsets[i]) & ULONG_MASK, sizes[i],
                          names[name_offsets[i]:names.index(b'\0', name_offsets[i])]
                          .decode('ascii', 'replace')) for i in range(count)]
        return cls.table

    @classmethod
    def symbol(cls, addr):
        """%pS: "name+0xoff/0xsize", or "0xaddr" if no symbol covers it."""
        table = cls.load()
        low, high, found = 0, len(table) - 1, -1
        while low <= high:
            mid = (low + high) // 2
            if table[mid][0] <= addr:
                found, low = mid, mid + 1
            else:
                high = mid - 1
        if found >= 0:
            start, size, name = table[found]
            if addr - start < max(size, 1):
                return '%s+%#x/%#x' % (name, addr - start, size)
        return '%#x' % addr


def hex0(value):
    """C's %#lx: 0x1f, but 0 for zero."""
    return '%#x' % value if value else '0'


# -- cram-dmesg --------------------------------------------------------------


class CramDmesg(gdb.Command):
    """Print the kernel log: the printk ring buffer (kernel/printk.c), oldest
line first, as much of it as the buffer still holds (the shell's dmesg
prints its last 16 KiB)."""

    def __init__(self):
        super().__init__('cram-dmesg', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        buf = lookup('log_buf', 'printk.c')
        size = array_length(buf)
        head = ulong(lookup('log_head', 'printk.c'))
        avail = min(head, size)
        data = read_bytes(ulong(buf.address), size)
        start = (head - avail) % size
        text = data[start:] + data[:start] if avail == size else data[start:start + avail]
        gdb.write(text.decode('utf-8', 'replace'))
        if text and not text.endswith(b'\n'):
            gdb.write('\n')


# -- cram-slabinfo -------------------------------------------------------------


SLABINFO_HEADER = (
    '# name            <active_objs> <num_objs> <objsize> <objperslab> '
    '<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : '
    'slabdata <active_slabs> <num_slabs> <sharedavail>')
SLABINFO_STATS_HEADER = (
    ' : globalstat <listallocs> <maxobjs> <grown> <reaped> <error> '
    '<maxfreeable> <nodeallocs> <remotefrees> <alienoverflow> : cpustat '
    '<allochit> <allocmiss> <freehit> <freemiss>')


def cache_nodes(cachep):
    """The cache's struct kmem_cache_node pointers that exist."""
    nodes = cachep['node']
    return [nodes[i] for i in range(array_length(nodes)) if ulong(nodes[i])]


def slab_stats(nodes):
    """kmem_cache_get_stats(): the node counters, the CPUs' summed."""
    st = dict.fromkeys(('allocs', 'high_mark', 'grown', 'reaped', 'errors',
                        'max_freeable', 'node_allocs', 'allochit', 'allocmiss',
                        'freehit', 'freemiss'), 0)
    for node in nodes:
        ns = node['stats']
        for key in ('allocs', 'high_mark', 'grown', 'reaped', 'errors',
                    'max_freeable'):
            st[key] += ulong(ns[key])
        cpus = ns['cpu']
        for cpu in range(array_length(cpus)):
            for key in ('allochit', 'allocmiss', 'freehit', 'freemiss',
                        'node_allocs'):
                st[key] += ulong(cpus[cpu][key])
    return (' : globalstat %7d %6d %5d %4d %4d %4d %4d %4d %4d'
            ' : cpustat %6d %6d %6d %6d'
            % (st['allocs'], st['high_mark'], st['grown'], st['reaped'],
               st['errors'], st['max_freeable'], st['node_allocs'], 0, 0,
               st['allochit'], st['allocmiss'], st['freehit'], st['freemiss']))


def slabinfo_line(cachep, stats):
    nodes = cache_nodes(cachep)
    slabs = sum(ulong(n['total_slabs']) for n in nodes)
    free_slabs = sum(ulong(n['free_slabs']) for n in nodes)
    free_objs = sum(ulong(n['free_objects']) for n in nodes)
    shared_avail = sum(int(n['shared']['avail']) for n in nodes if ulong(n['shared']))
    num = int(cachep['num'])
    line = ('%-17s %6d %6d %6d %4d %4d : tunables %4d %4d %4d : slabdata %6d %6d %6d'
            % (cachep['name'].string(), slabs * num - free_objs, slabs * num,
               int(cachep['size']), num, 1 << int(cachep['gfporder']),
               int(cachep['limit']), int(cachep['batchcount']),
               int(cachep['shared']), slabs - free_slabs, slabs, shared_avail))
    if stats:
        line += slab_stats(nodes)
    return line


class CramSlabinfo(gdb.Command):
    """Print /proc/slabinfo 2.1 as the shell's slabinfo does: every cache on
slab_caches with its node lists' counters (summed over its nodes).
cram-slabinfo NAME: that cache only. cram-slabinfo -v adds each CPU's
array (avail/limit) and the shared array under every cache."""

    def __init__(self):
        super().__init__('cram-slabinfo', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        words = gdb.string_to_argv(arg)
        verbose = '-v' in words
        words = [w for w in words if w != '-v']
        if len(words) > 1:
            raise gdb.GdbError('usage: cram-slabinfo [-v] [NAME]')
        stats = bool(int(lookup('slab_stats_enabled')))
        caches = list(list_entries(lookup('slab_caches', 'slab_common.c'),
                                   'struct kmem_cache', 'list'))
        if words:
            caches = [c for c in caches if c['name'].string() == words[0]]
            if not caches:
                raise gdb.GdbError("cram-slabinfo: no cache named '%s'" % words[0])
        gdb.write('slabinfo - version: 2.1%s\n' % (' (statistics)' if stats else ''))
        gdb.write(SLABINFO_HEADER + (SLABINFO_STATS_HEADER if stats else '') + '\n')
        cpus = nr_cpus() if verbose else 0
        for cachep in caches:
            gdb.write(slabinfo_line(cachep, stats) + '\n')
            for cpu in range(cpus):
                ac = cachep['cpu_cache'][cpu]
                if ulong(ac):
                    gdb.write('  cpu %d: array %d/%d\n'
                              % (cpu, int(ac['avail']), int(ac['limit'])))
            for nid, node in enumerate(cache_nodes(cachep) if verbose else []):
                if ulong(node['shared']):
                    gdb.write('  node %d: shared %d/%d\n'
                              % (nid, int(node['shared']['avail']),
                                 int(node['shared']['limit'])))


# -- cram-buddyinfo -------------------------------------------------------------


def zones():
    """(node id, zone) for every zone of every online node (node_data[])."""
    node_data = lookup('node_data')
    result = []
    for nid in range(array_length(node_data)):
        pgdat = node_data[nid]
        if not ulong(pgdat):
            continue
        node_zones = pgdat.dereference()['node_zones']
        result += [(nid, node_zones[i]) for i in range(array_length(node_zones))]
    return result


class CramBuddyinfo(gdb.Command):
    """Print the free blocks per order of every populated zone, as the
shell's buddyinfo (/proc/buddyinfo) does."""

    def __init__(self):
        super().__init__('cram-buddyinfo', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        for nid, zone in zones():
            if not ulong(zone['present_pages']):
                continue
            free_area = zone['free_area']
            counts = ''.join('%6d ' % ulong(free_area[order]['nr_free'])
                             for order in range(array_length(free_area)))
            gdb.write('Node %d, zone %8s %s\n' % (nid, zone['name'].string(), counts))


# -- cram-vmallocinfo -------------------------------------------------------------


VM_IOREMAP, VM_ALLOC, VM_MAP = 0x1, 0x2, 0x4   # mm/vmalloc.h


def vm_kind(flags):
    if flags & VM_ALLOC:
        return 'vmalloc'
    if flags & VM_MAP:
        return 'vmap'
    if flags & VM_IOREMAP:
        return 'ioremap'
    return 'area'


def vmap_tree(node):
    """The areas of an AVL tree in address order (no recursion limit)."""
    stack = []
    while stack or ulong(node):
        while ulong(node):
            stack.append(node)
            node = node['left']
        node = stack.pop()
        yield node
        node = node['right']


class CramVmallocinfo(gdb.Command):
    """Print the vmalloc areas as the shell's vmallocinfo
(/proc/vmallocinfo) does: the busy tree in address order, then the areas
freed but not yet purged."""

    def __init__(self):
        super().__init__('cram-vmallocinfo', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        start = ulong(lookup('vmalloc_base'))
        end = start + ulong(lookup('vmalloc_size'))
        for va in vmap_tree(lookup('busy_root', 'vmalloc.c')):
            vm = va['vm']
            line = '0x%016x-0x%016x %7d' % (ulong(va['va_start']),
                                            ulong(va['va_end']), ulong(vm['size']))
            if ulong(vm['caller']):
                line += ' ' + Kallsyms.symbol(ulong(vm['caller']))
            if int(vm['nr_pages']):
                line += ' pages=%d' % int(vm['nr_pages'])
            if ulong(vm['phys_addr']):
                line += ' phys=0x%016x' % ulong(vm['phys_addr'])
            vpages = ' vpages' if start <= ulong(vm['pages']) < end else ''
            gdb.write('%s %s%s\n' % (line, vm_kind(int(vm['flags'])), vpages))
        for va in list_entries(lookup('purge_list', 'vmalloc.c'),
                               'struct vmap_area', 'list'):
            va_start, va_end = ulong(va['va_start']), ulong(va['va_end'])
            gdb.write('0x%016x-0x%016x %7d unpurged vm_area\n'
                      % (va_start, va_end, va_end - va_start))


# -- cram-page --------------------------------------------------------------------


def page_flag_names(flags):
    names = []
    for f in gdb.lookup_type('enum pageflags').fields():
        if f.name.startswith('PG_') and flags & (1 << f.enumval):
            names.append(f.name[3:])
    return names


def resolve_page(arg):
    """The struct page that arg names: a struct page pointer, a pfn, a
    struct page's address in mem_map, or an address in the direct map."""
    page_type = gdb.lookup_type('struct page')
    page_ptr = page_type.pointer()
    try:
        value = gdb.parse_and_eval(arg)
    except gdb.error as err:
        raise gdb.GdbError('cram-page: %s' % err)
    max_pfn = ulong(lookup('max_pfn'))
    vmemmap = ulong(lookup('vmemmap'))
    offset_base = ulong(lookup('page_offset_base'))
    vtype = value.type.strip_typedefs()
    if vtype.code == gdb.TYPE_CODE_PTR and \
            vtype.target().strip_typedefs().tag == 'page':
        addr = ulong(value)
    else:
        try:
            number = ulong(value)
        except gdb.error as err:
            raise gdb.GdbError('cram-page: %s is not a number or an address (%s)'
                               % (arg, err))
        if number < PFN_LIMIT:
            if number >= max_pfn:
                raise gdb.GdbError('cram-page: pfn %#x is beyond max_pfn %#x: no '
                                   'struct page' % (number, max_pfn))
            addr = vmemmap + number * page_type.sizeof
        elif vmemmap <= number < vmemmap + max_pfn * page_type.sizeof:
            addr = number
        elif offset_base <= number < offset_base + (max_pfn << PAGE_SHIFT):
            addr = vmemmap + ((number - offset_base) >> PAGE_SHIFT) * page_type.sizeof
        else:
            raise gdb.GdbError('cram-page: %#x is neither a pfn below max_pfn %#x, '
                               'a struct page in mem_map, nor a direct-map '
                               'address' % (number, max_pfn))
    if (addr - vmemmap) % page_type.sizeof or not \
            vmemmap <= addr < vmemmap + max_pfn * page_type.sizeof:
        raise gdb.GdbError('cram-page: %#x is not a struct page in mem_map' % addr)
    return gdb.Value(addr).cast(page_ptr), (addr - vmemmap) // page_type.sizeof


class CramPage(gdb.Command):
    """Decode one struct page: cram-page PFN, cram-page ADDR (a direct-map
address, or a struct page's own address), or any expression of type
struct page *. Prints its flags by name, node and zone, refcount and
mapcount, and what the page is: a slab's first page (its cache, s_mem,
active, freelist), a free buddy block's first page (its order), a
compound page's head or tail."""

    def __init__(self):
        super().__init__('cram-page', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError('usage: cram-page ADDR|PFN')
        page, pfn = resolve_page(arg)
        try:
            self.show(page, pfn)
        except gdb.MemoryError as err:
            raise gdb.GdbError('cram-page: pfn %#x has no struct page in memory '
                               '(a hole in mem_map?): %s' % (pfn, err))

    @staticmethod
    def show(page, pfn):
        flags = ulong(page['flags'])
        zone_names = [z['name'].string() for nid, z in zones() if nid == 0]
        zone = (flags >> ZONES_PGSHIFT) & ZONES_MASK
        names = page_flag_names(flags)
        gdb.write('page %#x pfn %#x phys %#x node %d zone %s\n'
                  % (ulong(page), pfn, pfn << PAGE_SHIFT,
                     (flags >> NODES_PGSHIFT) & NODES_MASK,
                     zone_names[zone] if zone < len(zone_names) else zone))
        gdb.write('  flags %#x (%s)\n' % (flags, '|'.join(names) or 'none'))
        # page_type is the word Linux calls _mapcount; slabs keep active there.
        gdb.write('  refcount %d mapcount %d alloc_order %d\n'
                  % (int(page['_refcount']['counter']),
                     0 if 'slab' in names else int(page['page_type']),
                     int(page['alloc_order'])))
        head = ulong(page['compound_head'])
        if head & 1:
            size = page.type.target().sizeof
            gdb.write('  tail page of head %#x (pfn %#x)\n'
                      % (head - 1, pfn - (ulong(page) - (head - 1)) // size))
            return
        if 'head' in names:
            gdb.write('  compound head, order %d\n' % int(page[1]['compound_order']))
        if 'slab' in names:
            slab = page.cast(gdb.lookup_type('struct slab').pointer())
            cachep = slab['slab_cache']
            name = cachep['name'].string() if ulong(cachep) else '(none)'
            num = int(cachep['num']) if ulong(cachep) else 0
            gdb.write('  slab_cache %s (%#x) s_mem %#x active %d/%d freelist %#x\n'
                      % (name, ulong(cachep), ulong(slab['s_mem']),
                         int(slab['active']), num, ulong(slab['freelist'])))
        if 'buddy' in names:
            gdb.write('  buddy: free block of order %d\n' % ulong(page['private']))


# -- cram-percpu ----------------------------------------------------------------


class CramPercpu(gdb.Command):
    """Print a per-CPU variable's value on one CPU: cram-percpu VAR CPU.

Per-CPU data here are arrays indexed by CPU id (NR_CPUS arrays, or arrays
allocated at boot for every CPU): VAR is any expression gdb can index,
and the command prints (VAR)[CPU], e.g. cram-percpu rcu_data 2, or
cram-percpu cachep->cpu_cache 0. CPU must be below the number of CPUs
brought up."""

    def __init__(self):
        super().__init__('cram-percpu', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        words = arg.rsplit(None, 1)
        if len(words) != 2:
            raise gdb.GdbError('usage: cram-percpu VAR CPU')
        expr, cpu_text = words
        try:
            cpu = int(gdb.parse_and_eval(cpu_text))
        except gdb.error as err:
            raise gdb.GdbError('cram-percpu: bad CPU %s (%s)' % (cpu_text, err))
        cpus = nr_cpus()
        if not 0 <= cpu < cpus:
            raise gdb.GdbError('cram-percpu: CPU %d is not one of the %d CPUs up'
                               % (cpu, cpus))
        try:
            gdb.execute('print (%s)[%d]' % (expr, cpu), from_tty)
        except gdb.error as err:
            raise gdb.GdbError('cram-percpu: %s' % err)


def register():
    CramDmesg()
    CramSlabinfo()
    CramBuddyinfo()
    CramVmallocinfo()
    CramPage()
    CramPercpu()


register()
