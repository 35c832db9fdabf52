! A Fortran program that times a loop of compute and barriers with
! system_clock (8-byte and 4-byte counts) as well as MPI_Wtime
! (vclock_check.py's `clocks`): rank 0 prints wtime_s, system_clock_s,
! system_clock4_s and cpu_s (its processor time in the loop, by cpu_time).
! Under the virtual clock every clock but cpu_time tells virtual time.
! Usage: program_clocks_fortran ms iterations
program program_clocks_fortran
  use mpi
  implicit none
  integer :: ierr, rank, it, iterations
  integer(kind=8) :: count8_start, count8_end, rate8
  integer(kind=4) :: count4_start, count4_end, rate4
  double precision :: ms, wtime_start, wtime_s, cpu, cpu_start, cpu_now, x
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (command_argument_count() /= 2) then
    if (rank == 0) print '(a)', 'usage: program_clocks_fortran ms iterations'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  call get_command_argument(1, arg)
  read (arg, *) ms
  call get_command_argument(2, arg)
  read (arg, *) iterations

  cpu = 0
  x = 1
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  wtime_start = MPI_Wtime()
  call system_clock(count8_start, rate8)
  call system_clock(count4_start, rate4)
  do it = 1, iterations
    call cpu_time(cpu_start)
    cpu_now = cpu_start
    do while (cpu_now - cpu_start < ms * 1d-3)
      x = x * 1.0000001d0 + 1d-9
      call cpu_time(cpu_now)
    end do
    cpu = cpu + (cpu_now - cpu_start)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do
  wtime_s = MPI_Wtime() - wtime_start
  call system_clock(count8_end)
  call system_clock(count4_end)
  if (rank == 0) then
    print '(a,f0.9,a,f0.9,a,f0.9,a,f0.9,a,es10.3)', 'wtime_s=', wtime_s, &
      ' system_clock_s=', dble(count8_end - count8_start) / dble(rate8), &
      ' system_clock4_s=', dble(count4_end - count4_start) / dble(rate4), ' cpu_s=', cpu, ' sink=', x
  end if
  call MPI_Finalize(ierr)
end program program_clocks_fortran
