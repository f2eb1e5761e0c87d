#ifndef AWFULBOT_CLIBOLM_SHIM_H
#define AWFULBOT_CLIBOLM_SHIM_H

/* libolm (Debian libolm-dev): Olm (1:1 device sessions) and Megolm (room sessions) for Matrix end-to-end encryption,
 * and its ed25519 signing keys (pk.h) for cross-signing. Only MatrixTransport's crypto files import this module. */
#include <olm/olm.h>
#include <olm/inbound_group_session.h>
#include <olm/outbound_group_session.h>
#include <olm/pk.h>

#endif
