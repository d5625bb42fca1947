/* SPDX-License-Identifier: MIT */
/*
 * pass_snia_fast: a *-fast run's check of its own matrix rounds (issue 19), added to its SNIA
 * block by pass_snia.c. The block's figures are those of the matrix rounds after the first
 * (pass_fast_run), so with two rounds each figure is one round's. One round stands for a cell's
 * steady state only if the drive is in the same state in every round; on the virtual SSD it is
 * not always (docs/fast-steady-state.md, "Cells that change between rounds": a 95 % read 4 KiB
 * cell measured 6187 IOPS in one matrix round and 21820 in the next). A cell whose block is no
 * larger than the sprandom fill's unit is measured validly in every matrix round, the first
 * included (the first round rebuilds only the contiguity that larger reads depend on), so its
 * rounds can be judged: SNIA's steady-state rule (ss.h) over all of them, with the tracking
 * phase's excursion limits. A cell that fails is named in the block, the headline and the
 * report: its figure is one round's, not a steady state. The check cannot see a cell that stays
 * in one state over both rounds while the drive has two, so where a snapshot records the virtual
 * SSD's model as of that kind (write cache off, no power-loss protection, a dynamic SLC cache)
 * the sentence says so whatever the check found.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "base/units.h"
#include "analysis/ss.h"

/* The inputs of the last sprandom fill before the tracking phase (manifest "sprandom"), NULL
 * when none is recorded (or it was refused: no inputs). */
static struct json_object *fill_inputs(const struct analyze_input *in, int64_t tracking_phase)
{
	struct json_object *arr, *inputs, *last = NULL;

	if (!json_object_object_get_ex(in->manifest, "sprandom", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		int64_t p;

		if (!jsonget_int(s, "phase", &p) && p < tracking_phase &&
		    json_object_object_get_ex(s, "inputs", &inputs) && inputs)
			last = inputs;
	}
	return last;
}

/* The unit of that fill, 0 when none. */
static uint64_t fill_unit(const struct analyze_input *in, int64_t tracking_phase)
{
	int64_t bs;

	if (jsonget_int(fill_inputs(in, tracking_phase), "bs", &bs) || bs <= 0)
		return 0;
	return (uint64_t)bs;
}

const char *pass_fast_forced(const struct analyze_input *in, int64_t tracking_phase)
{
	struct json_object *inputs = fill_inputs(in, tracking_phase);
	const char *why = jsonget_str(inputs, "forced_past");

	return jsonget_true(inputs, "forced") ? (why ? why : "reason not recorded") : NULL;
}

/*
 * Whether the target ran the matrix phase as a two-state drive: the virtual SSD's model as a
 * snapshot of that phase records it (`raw`: write_cache false, power_loss_protection false, a
 * dynamic SLC cache). A write then waits for its program, and whether small writes find SLC
 * space decides a cell's state: on client-tlc, 95 % read 4 KiB ran 6350 or 21350 IOPS in a round
 * at 10 drains per cell, the full run's window holding both (docs/fast-steady-state.md, "Every
 * cell"). 1 or 0; -1 when no snapshot of the phase records all three (a drive, or a run made
 * before slc_dynamic was recorded): not known, and not said.
 */
static int two_states(const struct analyze_input *in, int64_t phase)
{
	for (size_t i = 0; i < in->snapshots.n; i++) {
		struct json_object *sn = in->snapshots.snap[i], *raw, *wc, *plp, *dyn;
		int64_t p;

		if (jsonget_int(sn, "phase", &p) || p != phase ||
		    !json_object_object_get_ex(sn, "raw", &raw) ||
		    !json_object_object_get_ex(raw, "write_cache", &wc) ||
		    !json_object_object_get_ex(raw, "power_loss_protection", &plp) ||
		    !json_object_object_get_ex(raw, "slc_dynamic", &dyn) ||
		    !json_object_is_type(wc, json_type_boolean) ||
		    !json_object_is_type(plp, json_type_boolean) ||
		    !json_object_is_type(dyn, json_type_boolean))
			continue;
		return !json_object_get_boolean(wc) && !json_object_get_boolean(plp) &&
		       json_object_get_boolean(dyn);
	}
	return -1;
}

/* The excursion limits the tracking phase was judged with (its steady_state entry's params),
 * over a window of all n matrix rounds. */
static void limits(struct json_object *ss, size_t n, struct ss_params *p)
{
	struct json_object *par;

	ss_params_default(p);
	if (ss && json_object_object_get_ex(ss, "params", &par))
		(void)ss_params_from_json(par, p);
	p->window = (unsigned)n;
	p->max_rounds = (unsigned)n;
}

/* One row's values over the matrix rounds into y (n of them, in round order); 0 or -ENODATA
 * when a round has no measurement. */
static int row_values(const struct reader_measurement *ms, size_t nms, const struct pass_fast *f,
		      const char *cell, double *y, size_t n)
{
	size_t got = 0;

	for (size_t i = 0; i < n; i++)
		y[i] = NAN;
	for (size_t i = 0; i < nms; i++) {
		const struct reader_key *k = &ms[i].k;

		if (strcmp(k->kind, "cell") || k->phase != f->matrix.phase ||
		    k->repeat != f->matrix.repeat || strcmp(k->cell, cell) ||
		    k->round < f->matrix_first || k->round > f->matrix_last)
			continue;
		y[k->round - f->matrix_first] = ms[i].metric[RESULTS_METRIC_IOPS];
		got++;
	}
	for (size_t i = 0; i < n; i++)
		if (!isfinite(y[i]))
			return -ENODATA;
	return got == n ? 0 : -ENODATA;
}

/* The row's "fast_rounds": the values and SNIA's excursions as fractions of their average. */
static struct json_object *row_json(const struct pass_fast *f, const double *y, size_t n,
				    const struct ss_result *r, int *e)
{
	struct json_object *o = json_object_new_object(), *ra = json_object_new_array(),
			   *va = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		jsonnum_build_push(ra, json_object_new_int64(f->matrix_first + (int64_t)i), e);
		jsonnum_build_push(va, jsonnum_new(y[i]), e);
	}
	jsonnum_build_add(o, "rounds", ra, e);
	jsonnum_build_add(o, "values", va, e);
	jsonnum_build_num(o, "data_excursion", r->data_excursion / r->average, e);
	jsonnum_build_num(o, "slope_excursion", r->slope_excursion / r->average, e);
	jsonnum_build_add(o, "steady", json_object_new_boolean(r->data_ok && r->slope_ok), e);
	return o;
}

/* header.fast.rounds_check.text: what was checked and which cells failed (the first four by
 * name with their rounds' IOPS). */
static void check_text(char *buf, size_t len, const char *why_not, uint64_t unit, size_t checked,
		       struct json_object *bad, const struct pass_fast *f)
{
	size_t nbad = json_object_array_length(bad), at;
	char u[32];

	if (why_not) {
		snprintf(buf, len, "not checked: %s", why_not);
		return;
	}
	units_fmt_size(unit, u, sizeof(u));
	if (!nbad) {
		snprintf(buf, len,
			 "the %zu cell%s of at most %s %s steady over matrix rounds %" PRId64
			 "-%" PRId64 " by SNIA's rule",
			 checked, checked == 1 ? "" : "s", u, checked == 1 ? "is" : "are",
			 f->matrix_first, f->matrix_last);
		return;
	}
	at =
	    (size_t)snprintf(buf, len,
			     "%zu of %zu cells of at most %s not steady over matrix rounds %" PRId64
			     "-%" PRId64 " by SNIA's rule (",
			     nbad, checked, u, f->matrix_first, f->matrix_last);
	for (size_t i = 0; i < nbad && i < 4 && at < len; i++) {
		struct json_object *b = json_object_array_get_idx(bad, i), *v, *vals;

		at += (size_t)snprintf(buf + at, len - at, "%s%s IOPS", i ? "; " : "",
				       jsonget_str(b, "cell"));
		if (json_object_object_get_ex(b, "values", &vals))
			for (size_t j = 0; j < json_object_array_length(vals) && at < len; j++) {
				v = json_object_array_get_idx(vals, j);
				at += (size_t)snprintf(buf + at, len - at, "%s%.0f",
						       j ? " / " : " ", json_object_get_double(v));
			}
	}
	if (at < len && nbad > 4)
		at += (size_t)snprintf(buf + at, len - at, "; %zu more", nbad - 4);
	if (at < len)
		snprintf(buf + at, len - at,
			 "): their figures are one round's, not a steady state");
}

int pass_snia_fast_rounds(const struct analyze_input *in, const struct pass_fast *f,
			  struct json_object *ss, const struct reader_measurement *ms, size_t nms,
			  struct json_object *block)
{
	struct json_object *rows = NULL, *hd, *fj, *chk = json_object_new_object(),
			   *bad = json_object_new_array(), *names = json_object_new_array();
	size_t n = (size_t)(f->matrix_last - f->matrix_first + 1), checked = 0;
	uint64_t unit = fill_unit(in, f->tracking.phase);
	const char *why_not = NULL;
	double *y = malloc((n + 1) * sizeof(*y));
	struct ss_params p;
	int two = two_states(in, f->matrix.phase);
	char text[800];
	int e = 0;

	if (!y || !chk || !bad || !names) {
		e = -ENOMEM;
		goto out;
	}
	if (!json_object_object_get_ex(block, "matrix", &rows))
		(void)json_object_object_get_ex(block, "table", &rows);
	limits(ss, n, &p);
	if (n < 2)
		why_not = "one matrix round";
	else if (!unit)
		why_not = "no sprandom fill recorded before the tracking phase";
	else if (ss_params_validate(&p))
		why_not = "the tracking phase's steady-state limits are not usable";
	for (size_t i = 0; !why_not && rows && i < json_object_array_length(rows); i++) {
		struct json_object *row = json_object_array_get_idx(rows, i), *x;
		const char *cell = jsonget_str(row, "cell");
		struct ss_result r;
		int64_t bs;

		if (!cell || jsonget_str(row, "not_applicable") || jsonget_int(row, "bs", &bs) ||
		    bs <= 0 || (uint64_t)bs > unit || row_values(ms, nms, f, cell, y, n) ||
		    ss_check(y, n, (unsigned)f->matrix_first, &p, &r))
			continue;
		checked++;
		x = row_json(f, y, n, &r, &e);
		jsonnum_build_add(row, "fast_rounds", x, &e);
		if (!(r.data_ok && r.slope_ok)) {
			struct json_object *b = json_object_new_object();

			jsonnum_build_add(b, "cell", json_object_new_string(cell), &e);
			jsonnum_build_add(b, "values",
					  json_object_get(json_object_object_get(x, "values")), &e);
			jsonnum_build_push(bad, b, &e);
			jsonnum_build_push(names, json_object_new_string(cell), &e);
		}
	}
	if (!why_not && !checked)
		why_not = "no cell of at most the fill's unit";
	check_text(text, sizeof(text), why_not, unit, checked, bad, f);
	if (two == 1) {
		static const char caveat[] =
		    "; write cache off on a dynamic SLC cache without power-loss protection: a "
		    "cell can run in two states, and both rounds may hold the same one";
		size_t at = strlen(text);

		snprintf(text + at, sizeof(text) - at, "%s", caveat);
	}
	jsonnum_build_num(chk, "unit_bytes", unit ? (double)unit : NAN, &e);
	jsonnum_build_num(chk, "max_data_excursion", p.max_data_excursion, &e);
	jsonnum_build_num(chk, "max_slope_excursion", p.max_slope_excursion, &e);
	jsonnum_build_add(chk, "checked", json_object_new_int64((int64_t)checked), &e);
	if (two >= 0)
		jsonnum_build_add(chk, "two_states", json_object_new_boolean(two), &e);
	jsonnum_build_add(chk, "unsteady", names, &e);
	names = NULL;
	jsonnum_build_add(chk, "text", json_object_new_string(text), &e);
	if (json_object_object_get_ex(block, "header", &hd) &&
	    json_object_object_get_ex(hd, "fast", &fj) && fj) {
		jsonnum_build_add(fj, "rounds_check", chk, &e);
		chk = NULL;
	}
out:
	json_object_put(chk);
	json_object_put(bad);
	json_object_put(names);
	free(y);
	return e;
}
