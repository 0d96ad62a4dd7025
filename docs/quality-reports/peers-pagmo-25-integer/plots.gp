set terminal svg size 1100,420 dynamic font 'sans,11'
set logscale xy
set grid
set key outside right
set format y '10^{%T}'
set output 'convergence-rc22-planetary-gear-train.svg'
set multiplot layout 1,2 title 'rc22-planetary-gear-train (median error of 25 seeds; errors below 1e-10 drawn at 1e-10)'
set xlabel 'evaluations'
set ylabel 'median error f - f*'
plot 'convergence-rc22-planetary-gear-train.dat' index 0 using 1:2 with lines lw 2 title 'default', 'convergence-rc22-planetary-gear-train.dat' index 1 using 1:2 with lines lw 2 title 'pagmo-sade', 'convergence-rc22-planetary-gear-train.dat' index 2 using 1:2 with lines lw 2 title 'pagmo-de1220', 'convergence-rc22-planetary-gear-train.dat' index 3 using 1:2 with lines lw 2 title 'pagmo-gaco', 'convergence-rc22-planetary-gear-train.dat' index 4 using 1:2 with lines lw 2 title 'pagmo-cstrs-de'
set xlabel 'wall time (s)'
set ylabel 'median error f - f*'
plot 'convergence-rc22-planetary-gear-train.dat' index 5 using 1:2 with lines lw 2 title 'default', 'convergence-rc22-planetary-gear-train.dat' index 6 using 1:2 with lines lw 2 title 'pagmo-sade', 'convergence-rc22-planetary-gear-train.dat' index 7 using 1:2 with lines lw 2 title 'pagmo-de1220', 'convergence-rc22-planetary-gear-train.dat' index 8 using 1:2 with lines lw 2 title 'pagmo-gaco', 'convergence-rc22-planetary-gear-train.dat' index 9 using 1:2 with lines lw 2 title 'pagmo-cstrs-de'
unset multiplot
set output 'convergence-rc26-four-stage-gear-box.svg'
set multiplot layout 1,2 title 'rc26-four-stage-gear-box (median error of 25 seeds; errors below 1e-10 drawn at 1e-10)'
set xlabel 'evaluations'
set ylabel 'median error f - f*'
plot 'convergence-rc26-four-stage-gear-box.dat' index 0 using 1:2 with lines lw 2 title 'default', 'convergence-rc26-four-stage-gear-box.dat' index 1 using 1:2 with lines lw 2 title 'pagmo-sade', 'convergence-rc26-four-stage-gear-box.dat' index 2 using 1:2 with lines lw 2 title 'pagmo-de1220'
set xlabel 'wall time (s)'
set ylabel 'median error f - f*'
plot 'convergence-rc26-four-stage-gear-box.dat' index 3 using 1:2 with lines lw 2 title 'default', 'convergence-rc26-four-stage-gear-box.dat' index 4 using 1:2 with lines lw 2 title 'pagmo-sade', 'convergence-rc26-four-stage-gear-box.dat' index 5 using 1:2 with lines lw 2 title 'pagmo-de1220'
unset multiplot
