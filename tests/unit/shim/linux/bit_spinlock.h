/* SPDX-License-Identifier: GPL-2.0 */
/* host stand-in: tests/unit/shim/store_shim.h */
#include "../store_shim.h"
