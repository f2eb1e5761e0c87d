#ifndef AWFULBOT_CLIBXML2_SHIM_H
#define AWFULBOT_CLIBXML2_SHIM_H

/* Debian's libxml2 is built with ICU, so <libxml/encoding.h> pulls in the system's <unicode/ucnv.h>. Those ICU
 * headers clash with the copy Foundation ships (_FoundationICU: same enums, other members). We never call ICU, so
 * stand in for the two types the libxml2 headers mention and keep the system ICU headers out. */
#define UCNV_H 1
#include <stdint.h>
typedef struct UConverter UConverter;
typedef uint16_t UChar;

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/encoding.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlmemory.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* `xmlFree` is a global function pointer; Swift 6 treats it as shared mutable state. Call it through a function. */
static inline void awful_xml_free(void *pointer) { xmlFree(pointer); }

#endif
