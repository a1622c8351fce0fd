package plot

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"slices"
)

// pngScale is how many pixels of the PNG make one CSS pixel: figures are
// drawn at twice DPI, so they stay sharp on high-density screens, and
// displayed at DPI (Figure.Metadata gives the width and height to show).
const pngScale = 2

// paletteSize is how many colours a figure's PNG keeps: the white ground,
// black and greys, and each variant's colour with its fill and blends. With
// 32 the figures of seed 000 look the same as in full colour and take under
// half the bytes of a 256-colour palette's.
const paletteSize = 32

// encodePNG writes a drawn figure as a paletted PNG: a plot has a few
// colours and the shades that anti-aliasing blends between them, so
// paletteSize colours picked by frequency keep the picture (a rarer shade
// becomes the nearest of them) and the file is a fraction of an RGBA one. The PNG says its
// density in a pHYs chunk (pngScale × DPI), which is how a reader of the
// bytes alone knows the size to show it at.
func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, quantize(img)); err != nil {
		return nil, fmt.Errorf("plot: writing png: %w", err)
	}
	return withDensity(buf.Bytes(), pngScale*DPI), nil
}

// quantize maps img onto a palette of (at most) paletteSize of its colours
// (pickPalette), each pixel to the nearest one (no dithering: it would speckle
// flat areas and compress worse).
func quantize(img image.Image) *image.Paletted {
	rgba, ok := img.(*image.RGBA)
	if !ok {
		rgba = image.NewRGBA(img.Bounds())
		draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	}
	count := map[color.RGBA]int{}
	for i := 0; i+3 < len(rgba.Pix); i += 4 {
		count[color.RGBA{rgba.Pix[i], rgba.Pix[i+1], rgba.Pix[i+2], rgba.Pix[i+3]}]++
	}
	colors := make([]color.RGBA, 0, len(count))
	for c := range count {
		colors = append(colors, c)
	}
	slices.SortFunc(colors, func(a, b color.RGBA) int {
		if d := cmp.Compare(count[b], count[a]); d != 0 {
			return d
		}
		return cmp.Compare(binary.BigEndian.Uint32([]byte{a.R, a.G, a.B, a.A}), binary.BigEndian.Uint32([]byte{b.R, b.G, b.B, b.A}))
	})
	pal := pickPalette(colors, paletteSize)
	index := make(map[color.RGBA]uint8, len(colors))
	for i, c := range pal {
		index[c.(color.RGBA)] = uint8(i)
	}
	for _, c := range colors {
		if _, ok := index[c]; !ok {
			index[c] = uint8(pal.Index(c))
		}
	}
	b := rgba.Bounds()
	out := image.NewPaletted(b, pal)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := rgba.Pix[(y-b.Min.Y)*rgba.Stride:]
		for x := 0; x < b.Dx(); x++ {
			p := row[4*x : 4*x+4 : 4*x+4]
			out.Pix[(y-b.Min.Y)*out.Stride+x] = index[color.RGBA{p[0], p[1], p[2], p[3]}]
		}
	}
	return out
}

// withDensity inserts a pHYs chunk saying dpi dots per inch after the IHDR
// chunk of a PNG written by image/png.
func withDensity(p []byte, dpi int) []byte {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4 // signature, length, type, data, CRC
	if len(p) < ihdrEnd || string(p[12:16]) != "IHDR" {
		return p
	}
	ppm := uint32(math.Round(float64(dpi) / 0.0254))
	chunk := make([]byte, 0, 4+4+9+4)
	chunk = binary.BigEndian.AppendUint32(chunk, 9)
	chunk = append(chunk, "pHYs"...)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = append(chunk, 1) // unit: metre
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := make([]byte, 0, len(p)+len(chunk))
	out = append(out, p[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, p[ihdrEnd:]...)
}

// pickPalette takes up to n colours, most frequent first, passing over a
// colour close to one already taken while others are left (so that a rare
// but distinct colour, one variant's outlier, is not lost to shades of grey),
// then fills what is left by frequency.
func pickPalette(byFreq []color.RGBA, n int) color.Palette {
	pal := make(color.Palette, 0, n)
	taken := make(map[color.RGBA]bool, n)
	for _, c := range byFreq {
		if len(pal) == n {
			return pal
		}
		if !nearAny(c, pal) {
			pal, taken[c] = append(pal, c), true
		}
	}
	for _, c := range byFreq {
		if len(pal) == n {
			break
		}
		if !taken[c] {
			pal, taken[c] = append(pal, c), true
		}
	}
	return pal
}

// nearAny says whether c is within distinct of a colour of pal.
func nearAny(c color.RGBA, pal color.Palette) bool {
	const distinct = 40 // Euclidean distance in 8-bit RGB
	for _, p := range pal {
		q := p.(color.RGBA)
		dr, dg, db := int(c.R)-int(q.R), int(c.G)-int(q.G), int(c.B)-int(q.B)
		if dr*dr+dg*dg+db*db < distinct*distinct {
			return true
		}
	}
	return false
}
