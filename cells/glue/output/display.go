package output

import (
	"go/constant"
	"reflect"

	"github.com/benchbook/benchbook/stdlib/display"
)

// DisplayPath is the import path of the display package that cells import.
const DisplayPath = "github.com/benchbook/benchbook/stdlib/display"

// DisplayExports builds the display package of cells, as a symbol table
// for the interpreter (yaegi's interp.Exports): its functions publish to
// pub (a session's gives them to the cell running at the time), and an
// interpreted type with a Bundle method is a display.Renderer.
func DisplayExports(pub display.Publisher) map[string]map[string]reflect.Value {
	d := display.New(pub)
	syms := map[string]reflect.Value{
		"HTML":     reflect.ValueOf(d.HTML),
		"Markdown": reflect.ValueOf(d.Markdown),
		"SVG":      reflect.ValueOf(d.SVG),
		"PNG":      reflect.ValueOf(d.PNG),
		"Show":     reflect.ValueOf(d.Show),
		"Clear":    reflect.ValueOf(d.Clear),
		"NewID":    reflect.ValueOf(display.NewID),
		"JSON": reflect.ValueOf(func(v any) string {
			id, err := d.JSON(v)
			if err != nil {
				panic(err)
			}
			return id
		}),
		"Update": reflect.ValueOf(func(id, kind string, content any) {
			if err := d.Update(id, kind, content); err != nil {
				panic(err)
			}
		}),
		"Bundle":    reflect.ValueOf((*display.Bundle)(nil)),
		"Renderer":  reflect.ValueOf((*display.Renderer)(nil)),
		"_Renderer": reflect.ValueOf((*rendererWrapper)(nil)),
	}
	for name, mime := range map[string]string{
		"MIMEText": display.MIMEText, "MIMEHTML": display.MIMEHTML, "MIMEMarkdown": display.MIMEMarkdown,
		"MIMEPNG": display.MIMEPNG, "MIMESVG": display.MIMESVG, "MIMEJSON": display.MIMEJSON,
		"MIMEResult": display.MIMEResult, "MIMEBuild": display.MIMEBuild,
	} {
		syms[name] = reflect.ValueOf(constant.MakeString(mime))
	}
	return map[string]map[string]reflect.Value{DisplayPath + "/display": syms}
}

// rendererWrapper lets an interpreted type with a Bundle method be a
// display.Renderer in compiled code (the interpreter's wrapper convention:
// IValue holds the value, W<Method> its methods).
type rendererWrapper struct {
	IValue  any
	WBundle func() map[string]any
}

// Bundle implements display.Renderer.
func (w rendererWrapper) Bundle() map[string]any {
	if w.WBundle == nil {
		return nil
	}
	return w.WBundle()
}
