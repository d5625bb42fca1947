/* SPDX-License-Identifier: MIT */
/*
 * theory: closed-form write amplification of a page-mapped FTL under uniform random single-unit
 * writes, the anchor the virtual SSD is checked against (DESIGN.md) and what a probe prints
 * beside a measured WA. Pure functions of the spare factor; no I/O.
 *
 * alpha is the ratio of physical to user capacity, T/U = 1 / (1 - Sf) with Sf the spare factor
 * (alpha 1/0.93 for 7 % spare). On a real drive the physical (raw NAND) size is not reported:
 * a caller that prints these figures for one must state the raw size it assumed.
 *
 * Both return NaN for alpha <= 1 (no spare area: WA is unbounded) or not finite, and when GSL
 * reports an error.
 */
#ifndef SSDLAB_ANALYSIS_THEORY_H
#define SSDLAB_ANALYSIS_THEORY_H

/*
 * LRW / FIFO cleaning (Desnoyers, SYSTOR 2012, Eq. 4; Xiang & Kurkoski):
 * WA = alpha / (alpha + W0(-alpha e^-alpha)), W0 the principal branch of Lambert W (GSL).
 */
double theory_wa_lrw(double alpha);

/*
 * Greedy cleaning with pages_per_block pages (mapping units) per erase block (Desnoyers, SYSTOR
 * 2012, Eq. 12): k = 1 + 1 / (2 np), WA = WA_lrw(k alpha) / k. NaN for pages_per_block 0.
 */
double theory_wa_greedy(double alpha, unsigned pages_per_block);

#endif
