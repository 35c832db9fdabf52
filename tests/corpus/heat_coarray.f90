! Heat equation on a 2-D plate, Jacobi sweeps, written in Coarray Fortran
! (Fortran 2008 coarrays, `sync all`, Fortran 2018 `co_sum`), as codes are
! that leave the messages to the compiler's runtime: no MPI call in the
! source. Built with gfortran -fcoarray=lib and OpenCoarrays' MPICH
! library, whose coarray assignments are MPI one-sided transfers on windows
! it creates, `sync all` a barrier and `co_sum` an allreduce.
!
! The plate's rows are split in equal blocks over the images. Every step
! each image puts its edge rows into its neighbours' halo rows, all images
! synchronize, sweep, and synchronize again before the next step's puts
! overwrite the halos they read; every 10th step the residual is summed
! over the images, and every 100th printed by image 1.
!
! Usage: heat_coarray [rows [steps]]   (default 1024 rows of 1024, 1500 steps)
program heat_coarray
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nx = 1024
  integer :: ny, steps, me, np, rows, i, j, s, first
  real(dp), allocatable :: u(:, :)[:], v(:, :)
  real(dp) :: residual[*], total
  integer(8) :: c0, c1, rate
  character(len=32) :: arg

  ny = 1024
  steps = 1500
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) ny
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) steps
  end if
  me = this_image()
  np = num_images()
  rows = ny / np
  if (rows * np /= ny) then
    if (me == 1) print '(a,i0,a,i0,a)', 'heat_coarray: ', ny, ' rows do not split over ', np, ' images'
    error stop 1
  end if
  first = (me - 1) * rows

  ! Columns are x, the second index the image's rows with a halo row each side.
  allocate (u(nx, 0:rows + 1)[*], v(nx, rows))
  u = 0
  do j = 1, rows
    do i = 1, nx
      u(i, j) = sin(real(i, dp) * 0.01_dp) * cos(real(first + j, dp) * 0.013_dp)
    end do
  end do
  if (me == 1) u(:, 0) = 1
  if (me == np) u(:, rows + 1) = 0
  sync all

  call system_clock(c0, rate)
  do s = 1, steps
    if (me > 1) u(:, rows + 1)[me - 1] = u(:, 1)
    if (me < np) u(:, 0)[me + 1] = u(:, rows)
    sync all
    do j = 1, rows
      do i = 2, nx - 1
        v(i, j) = 0.25_dp * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
    if (mod(s, 10) == 0) then
      residual = sum((v(2:nx - 1, :) - u(2:nx - 1, 1:rows))**2)
      call co_sum(residual)
      if (me == 1 .and. mod(s, 100) == 0) print '(a,i0,a,es14.6)', 'result residual_', s, ' ', residual
    end if
    u(2:nx - 1, 1:rows) = v(2:nx - 1, :)
    sync all
  end do
  call system_clock(c1)

  total = sum(u(:, 1:rows))
  call co_sum(total)
  if (me == 1) then
    print '(a,es20.12)', 'result checksum ', total
    print '(a,i0,a,es14.6,a,es14.6,a)', 'loop: ', steps, ' iterations, ', real(c1 - c0, dp) / rate, ' s, ', &
      real(c1 - c0, dp) / rate / steps, ' s per iteration'
  end if
  deallocate (v)
end program heat_coarray
