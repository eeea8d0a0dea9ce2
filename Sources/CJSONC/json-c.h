/* SPDX-License-Identifier: Apache-2.0 */
/* json-c for libactivity's SwiftPM build: its flags come from pkg-config (Package.swift). */
#include <json-c/json.h>
