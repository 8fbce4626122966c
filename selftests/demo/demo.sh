#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 2 --pool 256M --timeout 400
#
# `make demo`'s guest side, run by make check too so that the README's main
# job cannot rot unnoticed.
exec /usr/share/cmm-mp/demo.sh
