/*
 * topology.c - reduces an hwloc topology (synthetic or XML) to a node shape.
 *
 * CPU side: hwloc's object counts.  A synthetic description without a Core
 * level ("pack:2 pu:4") has one core per PU; one without a Package level has
 * one package.  hwloc invents 1 GiB per NUMA node when a synthetic
 * description gives no "memory=" attribute: that memory is reported as
 * unknown (0) rather than as a number nobody wrote.
 *
 * Accelerators: hwloc has no notion of "card"; one GPU appears as several
 * objects: a PCI function, and below it one OS device per backend that saw it
 * (CUDA "cuda0", NVML "nvml0", OpenCL "opencl0d0", Linux DRM "card1" and
 * "renderD128", ...), and some cards have several PCI functions (an FPGA's
 * management and user functions, a GPU's audio function).  So:
 *  - Cards are PCI slots: the functions that share (domain, bus, device) are
 *    one card, and each card is counted once, whatever its OS devices.
 *  - A card is a GPU when one of its functions is a 3D controller (PCI class
 *    0x0302, how datacenter GPUs present themselves) or carries a compute OS
 *    device: CUDA, NVML, RSMI, LevelZero, or OpenCL of device type "GPU".
 *    Display-only OS devices (DRM "cardN"/"renderDN", GL) do not count: a
 *    server's BMC VGA chip has them too.
 *  - A card that is not a GPU is an FPGA when one of its functions has an
 *    FPGA vendor id (Xilinx 0x10ee, Altera 0x1172) or carries an OS device of
 *    subtype "FPGA" (hsim's convention for hand-written XML; hwloc has no FPGA
 *    backend) or an OpenCL device of type "Accelerator" (how Xilinx XRT and
 *    the Intel FPGA OpenCL runtime present their boards).  An Intel PAC card
 *    (vendor 0x8086) is seen only through that OpenCL device.
 *  - OS devices attached to no PCI function (hand-written XML) are grouped
 *    by backend: every backend lists every card once, so the card count is
 *    the largest per-backend count (4 cuda + 4 nvml = 4 GPUs).
 * The GPU model is the first GPU's "GPUModel" info, else its PCI "PCIDevice"
 * name, else its OS device subtype; its memory is the first of
 * CUDAGlobalMemorySize, OpenCLGlobalMemorySize, RSMIVRAMSize,
 * LevelZeroHBMSize, LevelZeroDDRSize found on it (all in KiB).
 */
#include "topology.h"

#include "cluster.h"

#include <ctype.h>
#include <errno.h>
#include <hwloc.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SYNTHETIC_PREFIX "synthetic:"
#define XML_PREFIX "xml:"
#define MIB (1024ull * 1024ull)
/* The most processing units a synthetic description may make.  hwloc builds
   one in time that grows faster than its size (docs/performance.md has the
   times), and real nodes have at most a few thousand; a larger node is
   described by its counts. */
#define SYNTHETIC_MAX_PUS 4096

/* What an OS device tells about its card. */
typedef enum dev_kind { DEV_NONE, DEV_GPU, DEV_FPGA } dev_kind_t;

/* Backends that list every card they see once: used to count OS devices
   without a PCI parent. */
enum {
    BK_CUDA, BK_NVML, BK_RSMI, BK_LEVELZERO, BK_OPENCL_GPU, /* GPU backends */
    BK_FPGA, BK_OPENCL_ACCEL,                               /* FPGA backends */
    BK_COUNT
};

/* The evidence gathered about one card (or one orphan OS device). */
typedef struct card {
    dev_kind_t kind;
    const char *model;     /* GPUModel info, or NULL; owned by hwloc */
    const char *pci_name;  /* PCIDevice info of a GPU function, or NULL */
    const char *subtype;   /* subtype of a GPU OS device, or NULL */
    int64_t memory_mb;     /* first memory info seen, MiB, 0 = none */
} card_t;

static int same_name(const char *a, const char *b) { return a && !strcasecmp(a, b); }

/* The backend that made an OS device: its subtype, or the infos hwloc 1.x
   exports used instead. */
static const char *osdev_backend(hwloc_obj_t o)
{
    if (o->subtype && *o->subtype)
        return o->subtype;
    const char *s = hwloc_obj_get_info_by_name(o, "CoProcType");
    return s ? s : hwloc_obj_get_info_by_name(o, "Backend");
}

/* Classifies one OS device; *backend gets its BK_* index when it counts. */
static dev_kind_t osdev_kind(hwloc_obj_t o, int *backend)
{
    hwloc_obj_osdev_type_t t = o->attr->osdev.type;
    if (t != HWLOC_OBJ_OSDEV_GPU && t != HWLOC_OBJ_OSDEV_COPROC)
        return DEV_NONE;
    const char *b = osdev_backend(o);
    static const struct { const char *name; int bk; dev_kind_t kind; } table[] = {
        {"CUDA", BK_CUDA, DEV_GPU},         {"NVML", BK_NVML, DEV_GPU},
        {"RSMI", BK_RSMI, DEV_GPU},         {"LevelZero", BK_LEVELZERO, DEV_GPU},
        {"FPGA", BK_FPGA, DEV_FPGA},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (same_name(b, table[i].name)) {
            *backend = table[i].bk;
            return table[i].kind;
        }
    if (same_name(b, "OpenCL")) {
        const char *type = hwloc_obj_get_info_by_name(o, "OpenCLDeviceType");
        if (same_name(type, "GPU")) {
            *backend = BK_OPENCL_GPU;
            return DEV_GPU;
        }
        if (same_name(type, "Accelerator")) {
            *backend = BK_OPENCL_ACCEL;
            return DEV_FPGA;
        }
    }
    return DEV_NONE;
}

/* The first GPU memory info of o, in MiB; 0 when it has none. */
static int64_t osdev_memory_mb(hwloc_obj_t o)
{
    static const char *const keys[] = {
        "CUDAGlobalMemorySize", "OpenCLGlobalMemorySize", "RSMIVRAMSize",
        "LevelZeroHBMSize", "LevelZeroDDRSize",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = hwloc_obj_get_info_by_name(o, keys[i]);
        if (v) {
            /* RSMI may append "KiB"; a value that is no size, or past
               any node's memory, is no memory info */
            char *end;
            errno = 0;
            unsigned long long kib = strtoull(v, &end, 10);
            if (*v >= '0' && *v <= '9' && !errno && kib / 1024 <= HSIM_NODE_MEM_MAX_MB &&
                kib / 1024 > 0)
                return (int64_t)(kib / 1024);
        }
    }
    return 0;
}

/* Adds what OS device o says to card c (a GPU outranks an FPGA). */
static void note_osdev(card_t *c, hwloc_obj_t o, dev_kind_t kind)
{
    if (kind == DEV_NONE)
        return;
    if (kind == DEV_GPU || c->kind == DEV_NONE)
        c->kind = kind;
    if (kind != DEV_GPU)
        return;
    if (!c->model)
        c->model = hwloc_obj_get_info_by_name(o, "GPUModel");
    if (!c->subtype)
        c->subtype = o->subtype;
    if (!c->memory_mb)
        c->memory_mb = osdev_memory_mb(o);
}

/* Adds the OS devices below I/O object parent, at any depth, to c. */
static void note_osdevs_below(card_t *c, hwloc_obj_t parent)
{
    for (hwloc_obj_t o = parent->io_first_child; o; o = o->next_sibling) {
        if (o->type == HWLOC_OBJ_OS_DEVICE) {
            int bk;
            note_osdev(c, o, osdev_kind(o, &bk));
        }
        note_osdevs_below(c, o);
    }
}

/* Adds what PCI function p and its OS devices say to card c. */
static void note_pci_function(card_t *c, hwloc_obj_t p)
{
    const struct hwloc_pcidev_attr_s *a = &p->attr->pcidev;
    if (a->class_id == 0x0302) {
        c->kind = DEV_GPU;
        if (!c->pci_name)
            c->pci_name = hwloc_obj_get_info_by_name(p, "PCIDevice");
    } else if ((a->vendor_id == 0x10ee || a->vendor_id == 0x1172) && c->kind == DEV_NONE) {
        c->kind = DEV_FPGA;
    }
    dev_kind_t before = c->kind;
    note_osdevs_below(c, p);
    if (c->kind == DEV_GPU && before != DEV_GPU && !c->pci_name)
        c->pci_name = hwloc_obj_get_info_by_name(p, "PCIDevice");
}

static int same_slot(hwloc_obj_t a, hwloc_obj_t b)
{
    return a->attr->pcidev.domain == b->attr->pcidev.domain &&
           a->attr->pcidev.bus == b->attr->pcidev.bus &&
           a->attr->pcidev.dev == b->attr->pcidev.dev;
}

/* Takes model and memory from c, the first GPU seen. */
static void take_first_gpu(hsim_node_shape_t *s, const card_t *c)
{
    const char *model = c->model ? c->model : c->pci_name ? c->pci_name : c->subtype;
    hsim_strlcpy(s->gpu_model, model ? model : "", sizeof s->gpu_model);
    s->gpu_memory_mb = c->memory_mb;
}

/* The first OS device below I/O object parent, at any depth, or NULL. */
static hwloc_obj_t first_osdev_below(hwloc_obj_t parent)
{
    for (hwloc_obj_t o = parent->io_first_child; o; o = o->next_sibling) {
        hwloc_obj_t d = o->type == HWLOC_OBJ_OS_DEVICE ? o : first_osdev_below(o);
        if (d)
            return d;
    }
    return NULL;
}

/* Takes the model of the FPGA card whose first PCI function is p (NULL for
   an OS device o with no PCI function): the board's PCI device name, less
   a trailing "(user function)" or the like, else the OS device's model. */
static void take_first_fpga(hsim_node_shape_t *s, hwloc_obj_t p, hwloc_obj_t o)
{
    const char *name = p ? hwloc_obj_get_info_by_name(p, "PCIDevice") : NULL;
    if (!name && p && !o) /* no PCI name: the card's OS device names it */
        o = first_osdev_below(p);
    if (!name && o)
        name = hwloc_obj_get_info_by_name(o, "GPUModel");
    if (!name && o)
        name = o->name;
    hsim_strlcpy(s->fpga_model, name ? name : "", sizeof s->fpga_model);
    char *paren = strrchr(s->fpga_model, '(');
    size_t n = strlen(s->fpga_model);
    if (paren && paren > s->fpga_model && n > 0 && s->fpga_model[n - 1] == ')') {
        *paren = '\0';
        for (n = strlen(s->fpga_model); n > 0 && s->fpga_model[n - 1] == ' '; n--)
            s->fpga_model[n - 1] = '\0';
    }
}

/* Counts GPU and FPGA cards, PCI slots first, then orphan OS devices.
   O(P^2 + D) for P PCI functions and D OS devices; allocates nothing. */
static void count_accelerators(hwloc_topology_t t, hsim_node_shape_t *s)
{
    for (hwloc_obj_t p = hwloc_get_next_pcidev(t, NULL); p; p = hwloc_get_next_pcidev(t, p)) {
        int seen = 0; /* a function of this slot came earlier: counted there */
        for (hwloc_obj_t q = hwloc_get_next_pcidev(t, NULL); q != p && !seen;
             q = hwloc_get_next_pcidev(t, q))
            seen = same_slot(p, q);
        if (seen)
            continue;
        card_t c = {0};
        for (hwloc_obj_t q = p; q; q = hwloc_get_next_pcidev(t, q))
            if (same_slot(p, q))
                note_pci_function(&c, q);
        if (c.kind == DEV_GPU) {
            if (s->gpus++ == 0)
                take_first_gpu(s, &c);
        } else if (c.kind == DEV_FPGA) {
            if (s->fpgas++ == 0)
                take_first_fpga(s, p, NULL);
        }
    }

    int per_backend[BK_COUNT] = {0};
    card_t first = {0};
    hwloc_obj_t first_fpga = NULL;
    for (hwloc_obj_t o = hwloc_get_next_osdev(t, NULL); o; o = hwloc_get_next_osdev(t, o)) {
        hwloc_obj_t up = o->parent;
        while (up && up->type != HWLOC_OBJ_PCI_DEVICE && up->type != HWLOC_OBJ_OS_DEVICE)
            up = up->parent;
        if (up) /* below a PCI function (counted above) or a sub-device */
            continue;
        int bk = 0;
        dev_kind_t kind = osdev_kind(o, &bk);
        if (kind == DEV_NONE)
            continue;
        per_backend[bk]++;
        if (kind == DEV_GPU && first.kind == DEV_NONE)
            note_osdev(&first, o, kind);
        if (kind == DEV_FPGA && !first_fpga)
            first_fpga = o;
    }
    int gpus = 0, fpgas = 0;
    for (int bk = 0; bk < BK_COUNT; bk++) {
        int *n = bk < BK_FPGA ? &gpus : &fpgas;
        if (per_backend[bk] > *n)
            *n = per_backend[bk];
    }
    if (gpus && s->gpus == 0) /* no PCI GPU came first */
        take_first_gpu(s, &first);
    if (fpgas && s->fpgas == 0)
        take_first_fpga(s, NULL, first_fpga);
    s->gpus += gpus;
    s->fpgas += fpgas;
}

static int count_type(hwloc_topology_t t, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(t, type);
    return n > 0 ? n : 0;
}

/* Fills s from a loaded topology; HSIM_EINPUT when it has no PU, or
   fewer PUs than cores (an XML file whose cpusets disagree: hwloc keeps a
   core whose PU it dropped). */
static int shape_of(hwloc_topology_t t, int memory_known, hsim_node_shape_t *s)
{
    s->pus = count_type(t, HWLOC_OBJ_PU);
    if (s->pus < 1)
        return HSIM_EINPUT;
    s->cores = count_type(t, HWLOC_OBJ_CORE);
    if (s->cores < 1)
        s->cores = s->pus;
    if (s->cores > s->pus)
        return HSIM_EINPUT;
    s->numa = count_type(t, HWLOC_OBJ_NUMANODE);
    if (s->numa < 1)
        s->numa = 1;
    s->packages = count_type(t, HWLOC_OBJ_PACKAGE);
    if (s->packages < 1)
        s->packages = 1;
    if (memory_known)
        s->memory_mb = (int64_t)(hwloc_get_root_obj(t)->total_memory / MIB);
    count_accelerators(t, s);
    return 0;
}

/* The first line of the file path that holds needle, 0 when none does (or
   the file cannot be read again).  O(size of the file). */
static long long line_of(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[4096];
    long long line = 1, found = 0;
    while (!found && fgets(buf, sizeof buf, f)) {
        if (strstr(buf, needle))
            found = line;
        line += strchr(buf, '\n') != NULL; /* a longer line goes on */
    }
    fclose(f);
    return found;
}

/* hwloc reads an XML attribute local_memory="-1" with strtoull(), as 2^64 - 1
   bytes: a NUMA node of 16 EiB, reported as 17,592,186,044,415 MiB.  Every
   NUMA node's memory must be below 2^63 bytes, and their sum too.  0, or
   HSIM_EINPUT naming the file and, when found, the line. */
static int check_numa_memory(hwloc_topology_t t, const char *where, const char *path,
                             hsim_err_t *e)
{
    hwloc_uint64_t sum = 0;
    hwloc_obj_t o = NULL;
    while ((o = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, o))) {
        hwloc_uint64_t m = o->attr ? o->attr->numanode.local_memory : 0;
        if (m > (hwloc_uint64_t)INT64_MAX) {
            long long line = line_of(path, "local_memory=\"-");
            char at[32] = "";
            if (line > 0)
                snprintf(at, sizeof at, ":%lld", line);
            return hsim_errf(e, HSIM_EINPUT,
                             "%s: topology file '%s'%s: local_memory of NUMA node %u: expected "
                             "a size in bytes, found a negative one (%lld)",
                             where, path, at, o->os_index, (long long)m);
        }
        sum += m;
        if (sum > (hwloc_uint64_t)INT64_MAX)
            return hsim_errf(e, HSIM_EINPUT,
                             "%s: topology file '%s': the NUMA nodes' local_memory sums to more "
                             "than 2^63 bytes: expected a node's memory",
                             where, path);
    }
    return 0;
}

#define OS_INDEX_MAX 1048575 /* a PU's or NUMA node's number, at most */

/* The CPU-side object types of hwloc's XML: each must carry its cpusets
   and nodesets. */
static int needs_cpuset(const char *type, size_t n)
{
    static const char *const types[] = {"Machine", "Package", "Die", "Core", "PU", "Group",
                                        "NUMANode", "MemCache", "L1Cache", "L2Cache",
                                        "L3Cache", "L4Cache", "L5Cache", "L1iCache",
                                        "L2iCache", "L3iCache"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i]) == n && !strncmp(type, types[i], n))
            return 1;
    return 0;
}

/* Whether the n bytes at v are a bitmap as hwloc writes one: words of 1 to
   16 hex digits after "0x", separated by commas, an empty word for a zero
   one ("0x00000003,,0x0"), at least one word not empty, the first of them
   perhaps "0xf...f" (all bits set from there on). */
static int is_bitmap(const char *v, size_t n)
{
    const char *end = v + n;
    int words = 0;
    if (n >= 7 && !strncmp(v, "0xf...f", 7)) {
        v += 7;
        if (v == end)
            return 1;
        if (*v++ != ',')
            return 0;
    }
    for (;;) {
        if (v < end && *v != ',') {
            if (end - v < 3 || v[0] != '0' || v[1] != 'x')
                return 0;
            v += 2;
            size_t digits = 0;
            while (v < end && isxdigit((unsigned char)*v)) {
                v++;
                digits++;
            }
            if (digits < 1 || digits > 16)
                return 0;
            words++;
        }
        if (v == end)
            return words > 0;
        if (*v++ != ',')
            return 0;
    }
}

/* Whether the attribute named n bytes at name holds a bitmap. */
static int bitmap_attr(const char *name, size_t n)
{
    static const char *const names[] = {"cpuset", "complete_cpuset", "allowed_cpuset",
                                        "nodeset", "complete_nodeset", "allowed_nodeset"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && !strncmp(name, names[i], n))
            return 1;
    return 0;
}

/* The first bitmap attribute of the tag [tag, end) whose value hwloc
   cannot read, into *name and *n; 0 when there is none. */
static int bad_bitmap(const char *tag, const char *end, const char **name, size_t *n)
{
    for (const char *p = tag; p < end;) {
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (!eq || eq + 1 >= end || eq[1] != '"')
            return 0;
        const char *a = eq;
        while (a > p && !isspace((unsigned char)a[-1]))
            a--;
        const char *v = eq + 2, *close = memchr(v, '"', (size_t)(end - v));
        if (!close)
            return 0;
        if (bitmap_attr(a, (size_t)(eq - a)) && !is_bitmap(v, (size_t)(close - v))) {
            *name = a;
            *n = (size_t)(eq - a);
            return 1;
        }
        p = close + 1;
    }
    return 0;
}

/*
 * hwloc 2.9 crashes (a NULL bitmap) on an XML object of a CPU-side type
 * without a cpuset, complete_cpuset or complete_nodeset attribute, a PU,
 * the Machine or a NUMA node say (fuzz_topology found those; nodeset is
 * asked for too, as lstopo writes all four), and aborts (an assertion in
 * hwloc_bitmap_sscanf()) on a malformed bitmap ("cpuset=\",x1\""); a PU
 * without its os_index took seconds and half a GiB: such a file is refused
 * before hwloc reads it.  A scan of the text, not a parse: an <object ...> tag ends at its
 * first '>' (hwloc writes '>' in a value as &gt;).  0, HSIM_ENOMEM, or
 * HSIM_EINPUT naming the file and the line; a file that cannot be read is
 * left to hwloc's own message.  O(size of the file).
 */
static int check_xml_objects(const char *path, const char *where, hsim_err_t *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (hsim_grow(&text, &cap, len + 65536 + 1, 1)) {
            fclose(f);
            hsim_free(text);
            return hsim_errf(e, HSIM_ENOMEM, "%s: out of memory reading topology file '%s'",
                             where, path);
        }
        size_t got = fread(text + len, 1, 65536, f);
        len += got;
        if (got < 65536)
            break;
    }
    fclose(f);
    text[len] = '\0';
    int rc = 0;
    for (const char *tag = text; !rc && (tag = strstr(tag, "<object"));) {
        const char *end = strchr(tag, '>'), *type = strstr(tag, " type=\"");
        if (!end)
            break; /* cut short: hwloc says so */
        const char *name;
        size_t name_len;
        if (bad_bitmap(tag, end, &name, &name_len)) {
            long long line = 1;
            for (const char *p = text; p < tag; p++)
                line += *p == '\n';
            rc = hsim_errf(e, HSIM_EINPUT,
                           "%s: topology file '%s':%lld: attribute %.*s: expected a bitmap "
                           "such as \"0x000000ff,0xffffffff\" (hex words after 0x, separated "
                           "by commas)", where, path, line, (int)(name_len < 32 ? name_len : 32),
                           name);
            break;
        }
        if (type && type < end) {
            type += 7;
            size_t n = strcspn(type, "\"");
            /* a PU's or NUMA node's number is a bit of the cpusets or
               nodesets: hwloc takes one missing as 2^32 - 1, and spends
               half a GiB on a bitmap that reaches it */
            if ((n == 2 && !strncmp(type, "PU", 2)) || (n == 8 && !strncmp(type, "NUMANode", 8))) {
                const char *at = strstr(tag, " os_index=\"");
                char *stop = NULL;
                unsigned long index = at && at < end ? strtoul(at + 11, &stop, 10) : 0;
                if (!at || at > end || stop == at + 11 || *stop != '"' || index > OS_INDEX_MAX) {
                    long long line = 1;
                    for (const char *p = text; p < tag; p++)
                        line += *p == '\n';
                    rc = hsim_errf(e, HSIM_EINPUT,
                                   "%s: topology file '%s':%lld: an object of type %.*s without "
                                   "an os_index from 0 to %d: expected its number (lstopo --of "
                                   "xml writes it)", where, path, line, (int)n, type,
                                   OS_INDEX_MAX);
                    break;
                }
            }
            static const char *const attrs[] = {" cpuset=\"", " complete_cpuset=\"",
                                                " nodeset=\"", " complete_nodeset=\""};
            for (size_t a = 0; !rc && a < 4 && needs_cpuset(type, n); a++) {
                const char *at = strstr(tag, attrs[a]);
                if (at && at < end)
                    continue;
                long long line = 1;
                for (const char *p = text; p < tag; p++)
                    line += *p == '\n';
                rc = hsim_errf(e, HSIM_EINPUT,
                               "%s: topology file '%s':%lld: an object of type %.*s without a "
                               "%.*s attribute: expected cpuset, complete_cpuset, nodeset and "
                               "complete_nodeset on every object from Machine to PU (lstopo "
                               "--of xml writes them)",
                               where, path, line, (int)(n < 32 ? n : 32), type,
                               (int)strlen(attrs[a]) - 3, attrs[a] + 1);
            }
        }
        tag = end;
    }
    hsim_free(text);
    return rc;
}

/* base_dir/file, or file itself when it is absolute or base_dir is empty.
   The caller frees the result with hsim_free(); NULL when out of memory. */
static char *resolve_path(const char *base_dir, const char *file)
{
    if (file[0] == '/' || !base_dir || !*base_dir)
        return hsim_strdup(file);
    size_t nb = strlen(base_dir), nf = strlen(file);
    char *p = hsim_malloc(nb + 1 + nf + 1);
    if (!p)
        return NULL;
    memcpy(p, base_dir, nb);
    size_t k = nb;
    if (base_dir[nb - 1] != '/')
        p[k++] = '/';
    memcpy(p + k, file, nf + 1);
    return p;
}

/* Points hwloc at the XML file; 0 or an HSIM_E* code with e filled. */
static int set_xml(hwloc_topology_t t, const char *path, const char *where, hsim_err_t *e)
{
    errno = 0;
    if (hwloc_topology_set_xml(t, path) == 0)
        return 0;
    int err = errno;
    if (err == ENOMEM)
        return hsim_errf(e, HSIM_ENOMEM, "%s: out of memory reading topology file '%s'",
                         where, path);
    if (err != 0 && err != EINVAL)
        return hsim_errf(e, HSIM_EINPUT,
                         "%s: topology file '%s': expected a readable hwloc XML file, found: %s",
                         where, path, strerror(err));
    return hsim_errf(e, HSIM_EINPUT,
                     "%s: topology file '%s': expected an hwloc XML topology (lstopo --of xml), "
                     "found a file hwloc cannot parse (hwloc: %s)",
                     where, path, strerror(err ? err : EINVAL));
}

/*
 * The processing units that a synthetic description hwloc accepted makes:
 * the product of its levels' arities ("type:N" or a bare N, numbers as
 * strtoul() base 0 reads them, as hwloc does), attributes in parentheses
 * and memory children in brackets passed over; cap + 1 once it passes cap.
 * O(length).
 */
static long synthetic_pus(const char *s, long cap)
{
    long pus = 1;
    while (*s) {
        if (*s == ' ' || *s == '\t') {
            s++;
        } else if (*s == '(' || *s == '[') { /* attributes, memory children */
            const char *close = strchr(s, *s == '(' ? ')' : ']');
            s = close ? close + 1 : s + strlen(s);
        } else {
            const char *colon = s;
            while (*colon && *colon != ':' && *colon != ' ' && *colon != '(' && *colon != '[')
                colon++;
            const char *num = *colon == ':' ? colon + 1 : s;
            char *end;
            unsigned long arity = strtoul(num, &end, 0);
            if (end == num) /* a token without an arity: step over it */
                end = (char *)colon + (*colon == ':');
            else if (arity > (unsigned long)cap || (pus *= (long)arity) > cap)
                return cap + 1;
            s = end > s ? end : s + 1;
        }
    }
    return pus;
}

/* What spec names after its prefix, blanks skipped; *is_xml says which
   prefix.  NULL for a spec of neither prefix. */
static const char *spec_arg(const char *spec, int *is_xml)
{
    const char *arg;
    if (!strncmp(spec, SYNTHETIC_PREFIX, strlen(SYNTHETIC_PREFIX))) {
        arg = spec + strlen(SYNTHETIC_PREFIX);
        *is_xml = 0;
    } else if (!strncmp(spec, XML_PREFIX, strlen(XML_PREFIX))) {
        arg = spec + strlen(XML_PREFIX);
        *is_xml = 1;
    } else {
        return NULL;
    }
    while (*arg == ' ' || *arg == '\t')
        arg++;
    return arg;
}

int hsim_topology_file(const char *spec, const char *base_dir, char *out, size_t size)
{
    if (size)
        out[0] = '\0';
    int is_xml = 0;
    const char *file = spec ? spec_arg(spec, &is_xml) : NULL;
    if (!file || !is_xml)
        return 0;
    char *path = resolve_path(base_dir, file);
    if (!path)
        return HSIM_ENOMEM;
    hsim_strlcpy(out, path, size);
    hsim_free(path);
    return 0;
}

int hsim_topology_load(const char *spec, const char *base_dir, const char *where,
                       hsim_node_shape_t *out, hsim_err_t *e)
{
    HSIM_ASSERT(out);
    memset(out, 0, sizeof *out);
    if (!where)
        where = "topology";
    if (!spec)
        spec = "";

    int is_xml;
    const char *arg = spec_arg(spec, &is_xml);
    if (!arg)
        return hsim_errf(e, HSIM_EINPUT,
                         "%s: unknown topology '%s': expected 'synthetic:<hwloc synthetic "
                         "description>' or 'xml:<file>'",
                         where, spec);
    if (!*arg)
        return hsim_errf(e, HSIM_EINPUT, "%s: topology '%s': expected %s after '%s', found nothing",
                         where, spec, is_xml ? "a file name" : "an hwloc synthetic description",
                         is_xml ? XML_PREFIX : SYNTHETIC_PREFIX);

    char *path = NULL;
    if (is_xml && !(path = resolve_path(base_dir, arg)))
        return hsim_errf(e, HSIM_ENOMEM, "%s: out of memory", where);

    hwloc_topology_t t;
    if (hwloc_topology_init(&t) < 0) {
        hsim_free(path);
        return hsim_errf(e, HSIM_ENOMEM, "%s: out of memory (hwloc_topology_init)", where);
    }
    /* Keep every PCI function and OS device the file holds: the default
       filter drops I/O objects, and with them the GPUs. */
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);

    int rc = 0;
    if (is_xml) {
        rc = check_xml_objects(path, where, e);
        if (!rc)
            rc = set_xml(t, path, where, e);
    } else {
        errno = 0;
        if (hwloc_topology_set_synthetic(t, arg) < 0) {
            int err = errno ? errno : EINVAL;
            rc = hsim_errf(e, HSIM_EINPUT,
                           "%s: bad synthetic topology '%s': expected an hwloc synthetic "
                           "description such as 'pack:2 numa:1 core:16 pu:2' (hwloc: %s)",
                           where, arg, strerror(err));
        } else if (synthetic_pus(arg, SYNTHETIC_MAX_PUS) > SYNTHETIC_MAX_PUS) {
            rc = hsim_errf(e, HSIM_EINPUT,
                           "%s: synthetic topology '%s': expected at most %d processing units "
                           "(the product of the levels' counts), found more; describe a "
                           "larger node by its counts (cores = ...)",
                           where, arg, SYNTHETIC_MAX_PUS);
        }
    }
    if (!rc) {
        errno = 0;
        if (hwloc_topology_load(t) < 0) {
            int err = errno ? errno : EINVAL;
            if (is_xml)
                rc = hsim_errf(e, HSIM_EINPUT,
                               "%s: topology file '%s': expected an hwloc XML topology (lstopo "
                               "--of xml), found XML that hwloc cannot load (hwloc: %s)",
                               where, path, strerror(err));
            else
                rc = hsim_errf(e, HSIM_EINPUT,
                               "%s: synthetic topology '%s': expected a description hwloc can "
                               "build, found one it cannot (hwloc: %s)",
                               where, arg, strerror(err));
        } else if (is_xml && (rc = check_numa_memory(t, where, path, e))) {
            /* said */
        } else if (shape_of(t, is_xml || strstr(arg, "memory=") != NULL, out) < 0) {
            rc = out->pus < 1
                     ? hsim_errf(e, HSIM_EINPUT,
                                 "%s: topology '%s': expected at least one processing unit, "
                                 "found none", where, is_xml ? path : arg)
                     : hsim_errf(e, HSIM_EINPUT,
                                 "%s: topology '%s': expected a processing unit (PU) in every "
                                 "core, found %d cores and %d PUs (do the cpusets agree?)",
                                 where, is_xml ? path : arg, out->cores, out->pus);
        } else if (out->gpus > HSIM_NODE_DEVICES_MAX || out->fpgas > HSIM_NODE_DEVICES_MAX) {
            rc = hsim_errf(e, HSIM_EINPUT,
                           "%s: topology '%s': expected at most %d GPUs and %d FPGAs on a node "
                           "(as the gpus and fpgas keys), found %d and %d",
                           where, is_xml ? path : arg, HSIM_NODE_DEVICES_MAX,
                           HSIM_NODE_DEVICES_MAX, out->gpus, out->fpgas);
        }
    }
    hwloc_topology_destroy(t);
    hsim_free(path);
    if (rc) {
        memset(out, 0, sizeof *out);
        return rc;
    }
    hsim_node_shape_describe(out, out->desc, sizeof out->desc);
    return 0;
}

/* "256 GiB" when whole, else "1536 MiB". */
static void format_mib(char *buf, size_t size, int64_t mib)
{
    if (mib % 1024 == 0)
        snprintf(buf, size, "%" PRId64 " GiB", mib / 1024);
    else
        snprintf(buf, size, "%" PRId64 " MiB", mib);
}

char *hsim_node_shape_describe(const hsim_node_shape_t *s, char *buf, size_t size)
{
    if (!size)
        return buf;
    char mem[32] = "memory unknown", gmem[40] = "";
    if (s->memory_mb > 0)
        format_mib(mem, sizeof mem, s->memory_mb);
    if (s->gpu_memory_mb > 0) {
        gmem[0] = ',';
        gmem[1] = ' ';
        format_mib(gmem + 2, sizeof gmem - 2, s->gpu_memory_mb);
    }
    int n = snprintf(buf, size, "%d cores/%d PUs, %d package%s, %d NUMA, %s", s->cores, s->pus,
                     s->packages, s->packages == 1 ? "" : "s", s->numa, mem);
    if (n >= 0 && (size_t)n < size && s->gpus > 0) {
        if (s->gpu_model[0] || gmem[0])
            n += snprintf(buf + n, size - (size_t)n, ", %d GPU%s (%s%s)", s->gpus,
                          s->gpus == 1 ? "" : "s", s->gpu_model[0] ? s->gpu_model : "model unknown",
                          gmem);
        else
            n += snprintf(buf + n, size - (size_t)n, ", %d GPU%s", s->gpus, s->gpus == 1 ? "" : "s");
    }
    if (n >= 0 && (size_t)n < size && s->fpgas > 0)
        snprintf(buf + n, size - (size_t)n, ", %d FPGA%s%s%s%s", s->fpgas,
                 s->fpgas == 1 ? "" : "s", s->fpga_model[0] ? " (" : "", s->fpga_model,
                 s->fpga_model[0] ? ")" : "");
    return buf;
}
