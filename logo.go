package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// logos draws the kernelspec's logo at 32 and 64 pixels: three bars, the
// middle one short, as a dead variant reads beside two live ones.
func logos() map[string][]byte {
	out := map[string][]byte{}
	for _, size := range []int{32, 64} {
		img := image.NewRGBA(image.Rect(0, 0, size, size))
		bg := color.RGBA{0x1f, 0x2a, 0x44, 0xff}
		bars := []struct {
			h   float64
			col color.RGBA
		}{{0.75, color.RGBA{0x4d, 0xab, 0xf7, 0xff}}, {0.12, color.RGBA{0xff, 0x6b, 0x6b, 0xff}}, {0.8, color.RGBA{0x69, 0xdb, 0x7c, 0xff}}}
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				img.Set(x, y, bg)
			}
		}
		w := size / 5
		for i, b := range bars {
			x0 := w/2 + i*(w+w/2) + w/4
			top := size - size/8 - int(b.h*float64(size)*0.75)
			for y := top; y < size-size/8; y++ {
				for x := x0; x < x0+w; x++ {
					img.Set(x, y, b.col)
				}
			}
		}
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		name := "logo-32x32.png"
		if size == 64 {
			name = "logo-64x64.png"
		}
		out[name] = buf.Bytes()
	}
	return out
}
