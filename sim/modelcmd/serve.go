package modelcmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/cara-sim/cara/sim"
)

// message is one of cara's messages as the command reads it.
type message struct {
	Type         string      `json:"type"`
	Protocol     int         `json:"protocol"`
	Seed         uint64      `json:"seed"`
	Batch        int         `json:"batch"`
	Model        int         `json:"model"`
	Train        []int       `json:"train"`
	X            [][]float64 `json:"x"`
	Y            []uint8     `json:"y"`
	Queries      [][]float64 `json:"queries"`
	Set          string      `json:"set"`
	SampleWeight []float64   `json:"sample_weight"`
}

// Serve is the command's side of protocol 1, for a model written in Go: it answers cara's
// messages, read from in, on out, until bye or the end of in. It fits M_t with tr on the batches
// the fit message names, drawing from the seed cara fits its own M_t with, so a built-in model
// served this way gives what cara gives it, bit for bit. tr ignores the sample weights (cara's own
// models do: errors.weights weighs errors in the cost, not in training).
func Serve(in io.Reader, out io.Writer, tr sim.Trainer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	data := map[int]message{}
	models := map[int]sim.Model{}
	var seed uint64
	answer := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		w.Write(append(b, '\n'))
		return w.Flush()
	}
	fail := func(format string, args ...any) error {
		return answer(map[string]string{"type": "error", "message": fmt.Sprintf(format, args...)})
	}
	for {
		line, err := readLine(br)
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			return fail("not a message: %v", err)
		}
		switch m.Type {
		case "hello":
			seed = m.Seed
			err = answer(map[string]any{"type": "hello", "protocol": Protocol})
		case "batch":
			data[m.Batch] = m
			err = answer(map[string]string{"type": "ok"})
		case "fit":
			x := sim.Points{}
			var y []uint8
			for _, b := range m.Train {
				x, y = appendRows(x, data[b].X), append(y, data[b].Y...)
			}
			s, _ := sim.Mix(seed, 1, uint64(m.Model))
			model, ferr := tr.Fit(x, y, s)
			if ferr != nil {
				err = fail("fit model %d: %v", m.Model, ferr)
				break
			}
			models[m.Model] = model
			err = answer(map[string]string{"type": "ok"})
		case "predict":
			model, ok := models[m.Model]
			if !ok {
				err = fail("no model %d", m.Model)
				break
			}
			rows := data[m.Batch].X
			if m.Set == "queries" {
				rows = data[m.Batch].Queries
			}
			p := appendRows(sim.Points{}, rows)
			pred := make([]uint8, len(rows))
			model.Predict(p, pred)
			y := make([]int, len(pred))
			for i, c := range pred {
				y[i] = int(c)
			}
			err = answer(map[string]any{"type": "predict", "y": y})
		case "bye":
			return nil
		default:
			err = fail("unknown message type %q", m.Type)
		}
		if err != nil {
			return err
		}
	}
}

// appendRows appends rows to p (whose D they set when p is empty).
func appendRows(p sim.Points, rows [][]float64) sim.Points {
	for _, r := range rows {
		p.D = len(r)
		p.V = append(p.V, r...)
	}
	return p
}
