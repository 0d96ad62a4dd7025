# ga-bench plots for seed/trig-constrained
# Redraw with: gnuplot plots.gp (in this directory). Data: time.dat, speedup.dat, roofline.dat.
print sprintf('gnuplot-version: %.1f patchlevel %s', GPVAL_VERSION, GPVAL_PATCHLEVEL)
png_term = (strstrt(GPVAL_TERMINALS, ' pngcairo ') > 0) ? 'pngcairo' : 'png'
set datafile commentschars '#'
set grid
set key outside right top vertical noenhanced

# Time per call against population size, log-log.
do for [ext in 'svg png'] {
  if (ext eq 'svg') { set terminal svg size 1400,520 dynamic noenhanced font 'Sans,11' background '#ffffff' } else { eval sprintf("set terminal %s size 1400,520 noenhanced font 'Sans,10'", png_term) }
  set output 'time.'.ext
  set multiplot layout 1,2 title 'seed/trig-constrained: time per call (median, min-max bars), double'
  set logscale xy
  set format x '1e%T'
  set xlabel 'population size N'
  set ylabel 'ms per call'
  set key inside left top
  set title 'evaluation only'
  plot 'time.dat' index 0 using 1:2:3:4 with yerrorlines lw 2 title 'object', \
       'time.dat' index 1 using 1:2:3:4 with yerrorlines lw 2 title 'unfused', \
       'time.dat' index 2 using 1:2:3:4 with yerrorlines lw 2 title 'unfused CUDA', \
       'time.dat' index 3 using 1:2:3:4 with yerrorlines lw 2 title 'fused serial', \
       'time.dat' index 4 using 1:2:3:4 with yerrorlines lw 2 title 'fused TBB x1', \
       'time.dat' index 5 using 1:2:3:4 with yerrorlines lw 2 title 'fused TBB x16', \
       'time.dat' index 6 using 1:2:3:4 with yerrorlines lw 2 title 'fused CUDA', \
       'time.dat' index 7 using 1:2:3:4 with yerrorlines lw 2 title 'fused-transfer CUDA'
  set title 'full generation'
  plot 'time.dat' index 8 using 1:2:3:4 with yerrorlines lw 2 title 'fused serial', \
       'time.dat' index 9 using 1:2:3:4 with yerrorlines lw 2 title 'fused TBB x1', \
       'time.dat' index 10 using 1:2:3:4 with yerrorlines lw 2 title 'fused TBB x16', \
       'time.dat' index 11 using 1:2:3:4 with yerrorlines lw 2 title 'fused CUDA', \
       'time.dat' index 12 using 1:2:3:4 with yerrorlines lw 2 title 'fused-transfer CUDA'
  unset multiplot
  set output
  unset logscale
  set format x
}

# Speedup over the slowest configuration at the largest population size.
do for [ext in 'svg png'] {
  if (ext eq 'svg') { set terminal svg size 1400,520 dynamic noenhanced font 'Sans,11' background '#ffffff' } else { eval sprintf("set terminal %s size 1400,520 noenhanced font 'Sans,10'", png_term) }
  set output 'speedup.'.ext
  set multiplot layout 1,2 title 'seed/trig-constrained: speedup over the slowest configuration'
  set style fill solid 0.6 border -1
  set boxwidth 0.6
  set logscale y
  set yrange [0.5:*]
  unset xlabel
  set ylabel 'speedup (x)'
  set xtics rotate by -30 noenhanced
  unset key
  set title 'evaluation only, N = 10,000,000'
  plot 'speedup.dat' index 0 using 0:2:xtic(1) with boxes, \
       'speedup.dat' index 0 using 0:2:(sprintf('%.3gx', $2)) with labels offset 0,0.8
  set title 'full generation, N = 10,000,000'
  plot 'speedup.dat' index 1 using 0:2:xtic(1) with boxes, \
       'speedup.dat' index 1 using 0:2:(sprintf('%.3gx', $2)) with labels offset 0,0.8
  unset multiplot
  set output
  unset logscale
  set yrange [*:*]
  set xtics norotate
  set key
}

# Roofline: attainable GFLOP/s = min(peak, intensity x copy bandwidth), per thread count.
bw0 = 20.853051555035258
pk0 = 83.47215139085407
roof0(x) = (x * bw0 < pk0) ? x * bw0 : pk0
bw1 = 89.62389751792134
pk1 = 857.3860849842733
roof1(x) = (x * bw1 < pk1) ? x * bw1 : pk1
do for [ext in 'svg png'] {
  if (ext eq 'svg') { set terminal svg size 1000,620 dynamic noenhanced font 'Sans,11' background '#ffffff' } else { eval sprintf("set terminal %s size 1000,620 noenhanced font 'Sans,10'", png_term) }
  set output 'roofline.'.ext
  set title 'seed/trig-constrained: roofline, evaluation at N = 10,000,000 (76 flop per individual)'
  set logscale xy
  set xlabel 'arithmetic intensity (flop/byte, bytes model)'
  set ylabel 'GFLOP/s'
  set xrange [0.15833333333333333:95.66489616375243]
  set yrange [*:397767.1716455224]
  set samples 400
  set key inside right bottom
  plot roof0 (x) with lines lw 2 dt 1 title '1 thread: 20.9 GB/s copy, 83.5 GFLOP/s peak', \
       roof1 (x) with lines lw 2 dt 2 title '16 threads: 89.6 GB/s copy, 857.4 GFLOP/s peak', \
       x * 4157.921950436789 with lines lw 2 dt 3 title 'GPU: 4157.9 GB/s device copy (peak FLOP/s not measured)', \
       'roofline.dat' using 1:2 with points pt 7 ps 1.5 title 'measured', \
       'roofline.dat' using 1:($4 == 0 ? $2 : 1/0):3 with labels left offset 1,0 notitle, \
       'roofline.dat' using 1:($4 == 1 ? $2 : 1/0):3 with labels right offset -1,0 notitle
  set output
  unset logscale
  set xrange [*:*]
  set yrange [*:*]
}
