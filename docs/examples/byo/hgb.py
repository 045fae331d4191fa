#!/usr/bin/env python3
"""Your model, your data: a scikit-learn model priced by cara (docs/byo-model.md).

    python3 hgb.py data fleet.csv.gz
        write the example's data: a fleet's weekly sensor readings and failures
    python3 hgb.py predictions fleet.csv.gz predictions.csv.gz
        fit a model on each week, predict every later week's rows with it, and write the
        predictions as cara reads them (model: {predictions: predictions.csv.gz})
    python3 hgb.py serve
        be the model over cara's protocol 1, JSON lines on stdin and stdout
        (model: {command: [python3, hgb.py, serve]})

Both ways give cara the same predictions: a HistGradientBoostingClassifier fitted to the same rows.
Needs numpy and scikit-learn (Debian: apt-get install python3-sklearn).
"""

import csv
import gzip
import json
import os
import random
import sys

# One thread: a few hundred rows a fit gain nothing from OpenMP's threads, which spin on a busy
# machine (25 s instead of 2 s for this example on two shared cores). Set before numpy loads.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: E402

FEATURES = ["hours", "temp_k", "vibration_mm_s"]  # what the model sees (and cara's kernel)
LABEL, BATCH, IGNORED = "failure", "week", "truck"  # data.label, data.batch_column, data.ignore
WEEKS, TRUCKS = 12, 300


def new_model():
    return HistGradientBoostingClassifier(max_iter=60, learning_rate=0.1, random_state=0)


def write_data(path):
    """A fleet of trucks, one row a truck a week. Failures follow vibration and heat; from week 6
    a firmware update reads vibration 0.6 mm/s higher, and the same readings mean less wear."""
    rng = random.Random(7)
    with gzip.GzipFile(path, "wb", mtime=0) as raw:
        out = csv.writer(_Text(raw), lineterminator="\n")
        out.writerow([IGNORED, BATCH] + FEATURES + [LABEL])
        for week in range(WEEKS):
            shift = 0.6 if week >= 6 else 0.0
            for truck in range(TRUCKS):
                hours = 2000 + 40 * week + rng.uniform(0, 6000)
                temp = rng.gauss(318, 4)
                wear = rng.gauss(2.0 + hours / 8000, 0.6)
                vibration = wear + shift + rng.gauss(0, 0.2)
                risk = 1.6 * (wear - 3.1) + 0.15 * (temp - 318) + rng.gauss(0, 0.5)
                failure = "yes" if risk > 0 else "no"
                out.writerow([truck, week, f"{hours:.0f}", f"{temp:.1f}", f"{vibration:.3f}", failure])


class _Text:
    """Text written as UTF-8 to a binary file."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, s):
        return self.raw.write(s.encode())


def read_batches(path):
    """The data as cara reads them: rows grouped by week in file order (cara wants the weeks
    sorted), so a row's number is its place among its week's rows. Returns [(X, y)] by batch."""
    batches, week = [], None
    with gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="") as f:
        for rec in csv.DictReader(f):
            if rec[BATCH] != week:
                week = rec[BATCH]
                batches.append(([], []))
            batches[-1][0].append([float(rec[name]) for name in FEATURES])
            batches[-1][1].append(rec[LABEL])
    return [(np.array(x), np.array(y)) for x, y in batches]


def fit(x, y, sample_weight=None):
    """A model of x and y; a batch of one class gets a model that predicts that class."""
    if len(set(y.tolist())) < 2:
        return Constant(y[0])
    return new_model().fit(x, y, sample_weight=sample_weight)


class Constant:
    def __init__(self, label):
        self.label = label

    def predict(self, x):
        return np.full(len(x), self.label)


def write_predictions(data, out):
    """Every model t' (fitted on week t') on every row of every week t >= t', long form."""
    batches = read_batches(data)
    models = [fit(x, y) for x, y in batches]
    with gzip.GzipFile(out, "wb", mtime=0) as raw:
        w = csv.writer(_Text(raw), lineterminator="\n")
        w.writerow(["model", "batch", "row", "prediction"])
        for tp, model in enumerate(models):
            for t in range(tp, len(batches)):
                for row, label in enumerate(model.predict(batches[t][0])):
                    w.writerow([tp, t, row, label])
    print(f"wrote {out}: {len(batches)} models, {sum((t + 1) * len(b[1]) for t, b in enumerate(batches))} predictions",
          file=sys.stderr)


def serve():
    """Protocol 1: one JSON object a line each way; every message gets one answer. Anything else
    this program has to say goes to stderr, never stdout."""
    batches, models = {}, {}

    def answer(msg):
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        try:
            if kind == "hello":
                if msg["protocol"] != 1:
                    answer({"type": "error", "message": f"this model speaks protocol 1, not {msg['protocol']}"})
                    continue
                print(f"hgb.py: {msg['batches']} batches of {msg['features']}, classes {msg['classes']}", file=sys.stderr)
                answer({"type": "hello", "protocol": 1})
            elif kind == "batch":
                batches[msg["batch"]] = (np.array(msg["x"]), np.array(msg["y"]), np.array(msg["queries"]))
                answer({"type": "ok"})
            elif kind == "fit":
                x = np.vstack([batches[b][0] for b in msg["train"]])
                y = np.concatenate([batches[b][1] for b in msg["train"]])
                models[msg["model"]] = fit(x, y, msg.get("sample_weight"))
                answer({"type": "ok"})
            elif kind == "predict":
                data, _, queries = batches[msg["batch"]]
                rows = data if msg["set"] == "data" else queries
                y = models[msg["model"]].predict(rows).tolist() if len(rows) else []
                answer({"type": "predict", "y": [int(v) for v in y]})
            elif kind == "bye":
                return
            else:
                answer({"type": "error", "message": f"unknown message type {kind!r}"})
        except Exception as e:  # the step and the reason go back to cara, which stops the run
            answer({"type": "error", "message": f"{type(e).__name__}: {e}"})


def main(argv):
    if argv[1:2] == ["data"] and len(argv) == 3:
        write_data(argv[2])
    elif argv[1:2] == ["predictions"] and len(argv) == 4:
        write_predictions(argv[2], argv[3])
    elif argv[1:] == ["serve"]:
        serve()
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
