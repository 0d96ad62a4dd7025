set terminal svg size 1100,420 dynamic font 'sans,11'
set logscale xy
set grid
set key outside right
set format y '10^{%T}'
set output 'convergence-rc26-four-stage-gear-box.svg'
set multiplot layout 1,2 title 'rc26-four-stage-gear-box (median error of 5 seeds; errors below 1e-10 drawn at 1e-10)'
set xlabel 'evaluations'
set ylabel 'median error f - f*'
plot 'convergence-rc26-four-stage-gear-box.dat' index 0 using 1:2 with lines lw 2 title 'default', 'convergence-rc26-four-stage-gear-box.dat' index 1 using 1:2 with lines lw 2 title 'pymoo-de'
set xlabel 'wall time (s)'
set ylabel 'median error f - f*'
plot 'convergence-rc26-four-stage-gear-box.dat' index 2 using 1:2 with lines lw 2 title 'default', 'convergence-rc26-four-stage-gear-box.dat' index 3 using 1:2 with lines lw 2 title 'pymoo-de'
unset multiplot
set output 'convergence-rc30-tension-compression-spring-2.svg'
set multiplot layout 1,2 title 'rc30-tension-compression-spring-2 (median error of 5 seeds; errors below 1e-10 drawn at 1e-10)'
set xlabel 'evaluations'
set ylabel 'median error f - f*'
plot 'convergence-rc30-tension-compression-spring-2.dat' index 0 using 1:2 with lines lw 2 title 'default', 'convergence-rc30-tension-compression-spring-2.dat' index 1 using 1:2 with lines lw 2 title 'pymoo-ga', 'convergence-rc30-tension-compression-spring-2.dat' index 2 using 1:2 with lines lw 2 title 'pymoo-de'
set xlabel 'wall time (s)'
set ylabel 'median error f - f*'
plot 'convergence-rc30-tension-compression-spring-2.dat' index 3 using 1:2 with lines lw 2 title 'default', 'convergence-rc30-tension-compression-spring-2.dat' index 4 using 1:2 with lines lw 2 title 'pymoo-ga', 'convergence-rc30-tension-compression-spring-2.dat' index 5 using 1:2 with lines lw 2 title 'pymoo-de'
unset multiplot
