! waitany_stencil.f90 -- explicit 2-D heat conduction with overlapped halo exchange
!
! Solves du/dt = kappa * Lap(u) on an n x n plate with a hot wall (u = 1)
! along the first global row and cold walls (u = 0) elsewhere, starting from
! a warm blob in the middle of the plate.  Explicit five-point update.
!
! The rows (second array index) are block-distributed over the ranks.  Each
! time step posts MPI_Irecv for both halo rows and MPI_Isend of both boundary
! rows, updates the interior rows that need no halo data, and then finishes
! each boundary row as soon as its halo arrives (MPI_Waitany loop over the
! pending receives).  The sends are completed with MPI_Waitall.  Every 5th
! step the norm of the change is reduced to rank 0 (MPI_Reduce), which
! appends a progress line to the log file waitany_stencil.log.
!
! Usage: waitany_stencil [n [steps]]
!   n      grid points per side     (default 1024)
!   steps  number of time steps     (default 100)

program waitany_stencil
  use mpi
  implicit none

  integer :: rank, nprocs, ierr
  integer :: n, nsteps, report_every
  double precision :: kappa
  integer :: nx, nl, row0, base, remn, up, down
  integer :: step, i, j, k, idx, cur, nxt, tmp, npending
  double precision, allocatable :: u(:,:,:)
  integer :: rreq(2), sreq(2)
  integer :: status(MPI_STATUS_SIZE)
  logical :: done(2)
  double precision :: h, x, y, lchg, gchg, lnorm, gnorm, last_change
  double precision :: t0, t1
  character(len=32) :: arg, tbuf, pbuf
  integer, parameter :: logunit = 17

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! ---- parameters: rank 0 decides, everybody receives ----
  n = 1024
  nsteps = 100
  report_every = 5
  kappa = 0.2d0
  if (rank == 0) then
     if (command_argument_count() >= 1) then
        call get_command_argument(1, arg)
        read(arg, *) n
     end if
     if (command_argument_count() >= 2) then
        call get_command_argument(2, arg)
        read(arg, *) nsteps
     end if
     if (n < 2 * nprocs) n = 2 * nprocs
     if (nsteps < 1) nsteps = 1
     write(*, '(a,i0,a,i0,a,i0,a,i0,a)') 'Waitany stencil: ', nprocs, ' ranks, ', n, ' x ', n, &
          ' grid, ', nsteps, ' steps'
     open(unit=logunit, file='waitany_stencil.log', status='replace', action='write')
     write(logunit, '(a,i0,a,i0)') '# waitany_stencil  n = ', n, '  ranks = ', nprocs
  end if
  call MPI_Bcast(n, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(nsteps, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(report_every, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(kappa, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)

  ! ---- decomposition ----
  nx = n
  base = n / nprocs
  remn = mod(n, nprocs)
  nl = base
  if (rank < remn) nl = nl + 1
  row0 = rank * base + min(rank, remn)
  up = rank - 1
  if (up < 0) up = MPI_PROC_NULL
  down = rank + 1
  if (down >= nprocs) down = MPI_PROC_NULL
  h = 1.0d0 / dble(n + 1)

  allocate(u(0:nx+1, 0:nl+1, 0:1))
  u = 0.0d0
  do j = 1, nl
     y = dble(row0 + j) * h
     do i = 1, nx
        x = dble(i) * h
        u(i, j, 0) = exp(-((x - 0.5d0)**2 + (y - 0.5d0)**2) / 0.02d0)
     end do
  end do
  if (up == MPI_PROC_NULL) u(:, 0, :) = 1.0d0     ! hot wall
  cur = 0
  nxt = 1
  last_change = 0.0d0

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()

  do step = 1, nsteps
     ! post halo receives and boundary sends
     call MPI_Irecv(u(0, 0, cur), nx + 2, MPI_DOUBLE_PRECISION, up, 10, &
          MPI_COMM_WORLD, rreq(1), ierr)
     call MPI_Irecv(u(0, nl + 1, cur), nx + 2, MPI_DOUBLE_PRECISION, down, 20, &
          MPI_COMM_WORLD, rreq(2), ierr)
     call MPI_Isend(u(0, 1, cur), nx + 2, MPI_DOUBLE_PRECISION, up, 20, &
          MPI_COMM_WORLD, sreq(1), ierr)
     call MPI_Isend(u(0, nl, cur), nx + 2, MPI_DOUBLE_PRECISION, down, 10, &
          MPI_COMM_WORLD, sreq(2), ierr)

     ! interior rows: no halo data needed
     do j = 2, nl - 1
        call update_row(j)
     end do

     ! boundary rows as their halos arrive
     done = .false.
     npending = 2
     do k = 1, npending
        call MPI_Waitany(2, rreq, idx, status, ierr)
        if (idx == MPI_UNDEFINED) exit
        if (idx == 1) call update_row(1)
        if (idx == 2) call update_row(nl)
        done(idx) = .true.
     end do
     if (.not. done(1)) call update_row(1)
     if (.not. done(2)) call update_row(nl)

     call MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE, ierr)

     if (mod(step, report_every) == 0) then
        lchg = 0.0d0
        do j = 1, nl
           do i = 1, nx
              lchg = lchg + (u(i, j, nxt) - u(i, j, cur))**2
           end do
        end do
        call MPI_Reduce(lchg, gchg, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, &
             MPI_COMM_WORLD, ierr)
        if (rank == 0) then
           last_change = sqrt(gchg)
           write(logunit, '(a,i6,a,es16.8)') 'step ', step, '   change norm ', last_change
        end if
     end if

     tmp = cur
     cur = nxt
     nxt = tmp
  end do

  t1 = MPI_Wtime()

  lnorm = 0.0d0
  do j = 1, nl
     do i = 1, nx
        lnorm = lnorm + u(i, j, cur)**2
     end do
  end do
  call MPI_Reduce(lnorm, gnorm, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)

  if (rank == 0) then
     close(logunit)
     write(*, '(a,es16.10)') 'result field_norm ', sqrt(gnorm) * h
     write(*, '(a,es16.10)') 'result last_change ', last_change
     write(tbuf, '(f14.6)') t1 - t0
     write(pbuf, '(es14.6)') (t1 - t0) / nsteps
     write(*, '(a,i0,a,a,a,a,a)') 'loop: ', nsteps, ' iterations, ', trim(adjustl(tbuf)), &
          ' s, ', trim(adjustl(pbuf)), ' s per iteration'
  end if

  deallocate(u)
  call MPI_Finalize(ierr)

contains

  subroutine update_row(jj)
    integer, intent(in) :: jj
    integer :: ii
    do ii = 1, nx
       u(ii, jj, nxt) = u(ii, jj, cur) + kappa * (u(ii - 1, jj, cur) + u(ii + 1, jj, cur) &
            + u(ii, jj - 1, cur) + u(ii, jj + 1, cur) - 4.0d0 * u(ii, jj, cur))
    end do
  end subroutine update_row

end program waitany_stencil
